import { expect, test, type Page } from '@playwright/test';
import { KYC_FLOW } from './support/flows';
import { checkScreen } from './support/pageChecks';
import { watchScreens } from './support/screensShown';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';

// Each spec creates its sessions over the real API of a real server (`idv serve`) on loopback,
// with a real SMTP server in the test process receiving the codes.
test.use({ launchOptions: FAKE_MEDIA_LAUNCH });
test.describe.configure({ mode: 'serial' });

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const step = (page: Page) => page.locator('main#step');

async function openSession(page: Page, body: Record<string, unknown>) {
  const created = await idv.createSession({ flow: KYC_FLOW, langs: ['en'], ...body });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  const watch = await watchScreens(page);
  await page.goto(created.clientSecret.url);
  return { ...created, watch };
}

test('a full run finishes complete and verified, with a transcript', async ({ page }) => {
  const email = 'jane.doe@example.com';
  const { session, watch } = await openSession(page, {
    initialPhrase: 'Welcome! I will guide you.',
    finalPhrase: 'Thank you, you are verified.',
  });

  // The secret leaves the address bar once spent.
  await expect(page).not.toHaveURL(/client_secret/);

  // permissions
  await expect(
    page.getByRole('heading', { level: 1, name: 'Camera and microphone' }),
  ).toBeVisible();
  await expect(page.getByTestId('avatar-words')).toContainText('allow your camera');
  await checkScreen(page, 'permissions');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  // conversation: the typed "yes" takes the "agrees" branch
  await expect(page.getByTestId('avatar-words')).toHaveText(
    'Do you agree to verify your identity today?',
  );
  await expect(page.getByTestId('avatar-words')).not.toContainText('Welcome');
  await expect(step(page)).toHaveAttribute('data-node-id', 'ask');
  await checkScreen(page, 'conversation');
  await page.getByRole('textbox', { name: 'Your answer' }).fill('Yes, I agree');
  await page.getByRole('button', { name: 'Send' }).click();

  // enter_email
  await expect(page.getByRole('heading', { level: 1, name: 'Your email address' })).toBeVisible();
  await checkScreen(page, 'enter-email');
  await page.getByRole('textbox', { name: 'Email address' }).fill('not-an-email');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Enter an email address');
  await page.getByRole('textbox', { name: 'Email address' }).fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  // two_factor_email: the code comes from the real SMTP server
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirm your email address' }),
  ).toBeVisible();
  await expect(page.getByText('We will send a code to j•••@example.com.')).toBeVisible();
  await checkScreen(page, 'otp-send');
  await page.getByRole('button', { name: 'Send the code' }).click();
  const mail = await idv.waitForMail(email);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeTruthy();
  const codeInput = page.getByRole('textbox', { name: 'Code (6 digits)' });
  await expect(codeInput).toBeFocused();
  await expect(codeInput).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(page.getByText('You can ask for a new code in')).toBeVisible();
  await checkScreen(page, 'otp-code');
  await codeInput.fill(code!);
  await page.getByRole('button', { name: 'Verify' }).click();

  // data_validation runs on the server; the end screen follows
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();
  await expect(page.getByTestId('avatar-words')).toHaveText('Thank you, you are verified.');
  // The page's flow machine followed the server's outcomes all the way.
  expect(watch.disagreements).toEqual([]);
  await checkScreen(page, 'end-complete');

  const result = await idv.getSession(session.id);
  expect(result.status).toBe('complete');
  expect(result.report.isVerified).toBe(true);
  expect(result.report.lang).toBe('en');
  expect(result.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'perm:permissionsGranted',
    'ask:agrees',
    'mail:emailEntered',
    'otp:verified',
    'check:ok',
  ]);
  const said = result.report.transcript.map((t) => `${t.isAvatar ? 'avatar' : 'user'}: ${t.text}`);
  expect(said).toContain('avatar: Do you agree to verify your identity today?');
  expect(said).toContain('user: Yes, I agree');
});

test('a "no" takes the other branch of the conversation', async ({ page }) => {
  const { session } = await openSession(page, {});
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('textbox', { name: 'Your answer' }).fill('No, I do not want to');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();
  const result = await idv.getSession(session.id);
  expect(result.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'perm:permissionsGranted',
    'ask:declines',
  ]);
});

test('a wrong code three times ends on failed_unverified', async ({ page }) => {
  const { session } = await openSession(page, { providedData: { email: 'sam@example.com' } });
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('textbox', { name: 'Your answer' }).fill('yes');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('textbox', { name: 'Email address' }).fill('sam@example.com');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('button', { name: 'Send the code' }).click();
  const mail = await idv.waitForMail('sam@example.com');
  const right = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
  const wrong = right === '111111' ? '222222' : '111111';
  const codeInput = page.getByRole('textbox', { name: 'Code (6 digits)' });
  for (const left of [2, 1]) {
    await codeInput.fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      `That code is not right. Attempts left: ${left}`,
    );
    if (left === 2) await checkScreen(page, 'otp-wrong-code');
  }
  await codeInput.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();
  const result = await idv.getSession(session.id);
  expect(result.report.nodeReports.at(-1)).toMatchObject({
    nodeId: 'otp',
    outcome: 'failed_unverified',
  });
  expect(result.report.isVerified).toBe(false);
});

test('a closing message that needs no reply moves on and stays in view', async ({ page }) => {
  const { session, clientSecret } = await idv.createSession({
    flow: [
      { id: 'start', type: 'start', outcome: 'mail' },
      { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'bye' } },
      {
        id: 'bye',
        type: 'conversation',
        prompt: 'Say: Thank you, that is all we needed.',
        doesNotRequireReply: true,
        outcomes: [{ id: 'next', condition: '', targetNodeId: 'end' }],
      },
      { id: 'end', type: 'end' },
    ],
  });
  await page.goto(clientSecret.url);
  await page.getByRole('textbox', { name: 'Email address' }).fill('quiet@example.com');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();
  await expect(page.getByTestId('avatar-words')).toHaveText('Thank you, that is all we needed.');
  const result = await idv.getSession(session.id);
  expect(result.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'mail:emailEntered',
    'bye:next',
  ]);
  expect(result.report.transcript.map((t) => t.text)).toContain(
    'Thank you, that is all we needed.',
  );
});
