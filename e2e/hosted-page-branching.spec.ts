import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { watchScreens } from './support/screensShown';

// The page runs the machine of the session's flow, each node's actor ending with the outcome
// the server decided: through a branching flow, the screens it shows are the server's nodes, one
// after the other, and its flow machine never has to be put back on the server's path.
test.use({ launchOptions: FAKE_MEDIA_LAUNCH });
test.describe.configure({ mode: 'serial' });

// permissions → welcome (agreed → email → email_code → email_check → verified;
// declined → goodbye, which needs no reply → declined_end).
const FLOW = JSON.parse(
  readFileSync(new URL('./flows/conversation-branching.json', import.meta.url), 'utf8'),
) as unknown[];

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

async function open(page: Page) {
  const created = await idv.createSession({ flow: FLOW, langs: ['en'] });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  const watch = await watchScreens(page);
  await page.goto(created.clientSecret.url);
  return { id: created.session.id, watch };
}

async function answer(page: Page, reply: string) {
  await expect(page.getByTestId('avatar-words')).toHaveText(
    'Hello! Shall we verify your email address now?',
  );
  await page.getByRole('textbox', { name: 'Your answer' }).fill(reply);
  await page.getByRole('button', { name: 'Send' }).click();
}

const done = (page: Page) =>
  expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();

test('the "no" branch: the goodbye node, then its end', async ({ page }) => {
  const { id, watch } = await open(page);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await answer(page, 'No, thanks');
  await done(page);
  await expect(page.getByTestId('avatar-words')).toHaveText('No problem. Goodbye!');

  expect(await watch.screens()).toEqual(['permissions', 'welcome', 'goodbye']);
  const session = await idv.getSession(id);
  expect(session.status).toBe('complete');
  expect(session.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'permissions:permissionsGranted',
    'welcome:declined',
    'goodbye:closed',
  ]);
  expect(watch.disagreements).toEqual([]);
});

test('the "yes" branch: the email, its code, the server’s check, then the end', async ({
  page,
}) => {
  const email = 'branch.yes@example.com';
  const { id, watch } = await open(page);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await answer(page, 'Yes, let us go');
  await page.getByRole('textbox', { name: 'Email address' }).fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('button', { name: 'Send the code' }).click();
  const mail = await idv.waitForMail(email);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeTruthy();
  await page.getByRole('textbox', { name: 'Code (6 digits)' }).fill(code!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await done(page);

  // email_check (data_validation) is run by the server in the same answer as the code: the
  // page's machine passes it without a screen.
  expect(await watch.screens()).toEqual(['permissions', 'welcome', 'email', 'email_code']);
  const session = await idv.getSession(id);
  expect(session.status).toBe('complete');
  expect(session.report.isVerified).toBe(true);
  expect(session.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'permissions:permissionsGranted',
    'welcome:agreed',
    'email:emailEntered',
    'email_code:verified',
    'email_check:valid',
  ]);
  expect(watch.disagreements).toEqual([]);
});

test('a reload mid-flow puts the machine back on the server’s node by the path', async ({
  page,
}) => {
  const { watch } = await open(page);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await answer(page, 'Yes please');
  await expect(page.getByRole('heading', { level: 1, name: 'Your email address' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Your email address' })).toBeVisible();
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'email');
  expect(watch.disagreements).toEqual([]);
});
