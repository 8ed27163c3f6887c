import { expect, test, type Page } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { launchWithoutCamera } from './support/noCamera';
import { checkScreen } from './support/pageChecks';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });

// Each way a session ends has its own end screen: a finished one says only that it was received
// (never the verdict), an incomplete one why and what to do next, never with a success mark.

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

// The failures are routed nowhere: each ends the session incomplete.
const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'live' } },
  {
    id: 'live',
    type: 'liveness_detection',
    // The tester's panel decides the node; the capture must not end it first, however slow.
    timeoutSeconds: 600,
    outcomes: { livenessDetected: 'otp' },
  },
  { id: 'otp', type: 'two_factor_email', outcomes: { verified: 'done' } },
  { id: 'done', type: 'end' },
];

const CODE_FLOW = [
  { id: 'start', type: 'start', outcome: 'otp' },
  { id: 'otp', type: 'two_factor_email', maxAttempts: 2, outcomes: { verified: 'done' } },
  { id: 'done', type: 'end' },
];

const panelOf = (page: Page) =>
  page.getByRole('complementary', { name: 'Tester: choose the outcome of this step' });

/** Checks the end screen shown: its heading, reason, and that nothing on it reads as a pass. */
async function expectEnding(
  page: Page,
  heading: string,
  reason: string | null,
  shot: string,
): Promise<void> {
  const end = page.locator('section.end');
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  if (reason) {
    await expect(end).toHaveAttribute('data-status', 'incomplete');
    await expect(end).toHaveAttribute('data-end-reason', reason);
  } else {
    await expect(end).toHaveAttribute('data-status', 'complete');
  }
  await expect(end).not.toContainText('✓');
  await expect(end.locator('.end-icon.ok')).toHaveCount(0);
  await checkScreen(page, shot);
}

test('complete: received, no verdict', async ({ page }) => {
  const { session, clientSecret } = await idv.createSession(
    { flow: FLOW, providedData: { email: 'kim@example.com' } },
    idv.keys.test,
  );
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);
  const panel = panelOf(page);
  await panel.getByRole('button', { name: /Permissions granted/ }).click();
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'live');
  await panel.getByRole('button', { name: /Live person detected/ }).click();
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'otp');
  await panel.getByRole('button', { name: /Code verified/ }).click();
  await expectEnding(page, 'We have received your verification', null, 'end-received');
  expect((await idv.getSession(session.id, idv.keys.test)).status).toBe('complete');
});

test('attack: the step could not be completed, and nothing says why', async ({ page }) => {
  const { session, clientSecret } = await idv.createSession({ flow: FLOW }, idv.keys.test);
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);
  const panel = panelOf(page);
  await panel.getByRole('button', { name: /Permissions granted/ }).click();
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'live');
  await panel.getByRole('button', { name: /Deepfake detected/ }).click();
  await expectEnding(page, 'This step could not be completed', 'stepNotCompleted', 'end-attack');
  await expect(page.locator('section.end')).not.toContainText(/deepfake|fake|fraud|spoof/i);
  const result = await idv.getSession(session.id, idv.keys.test);
  expect(result.status).toBe('incomplete');
  expect(result.report.nodeReports.at(-1)?.outcome).toBe('deepfakeDetected');
});

test('left: the user chose Leave', async ({ page }) => {
  const { clientSecret } = await idv.createSession({ flow: FLOW });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, leave' }).click();
  await expectEnding(page, 'You left the verification', 'left', 'end-left');
});

test('code failed: the code was not confirmed', async ({ page }) => {
  const { clientSecret } = await idv.createSession({
    flow: CODE_FLOW,
    providedData: { email: 'lee@example.com' },
  });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Send the code' }).click();
  const mail = await idv.waitForMail('lee@example.com');
  const right = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
  const wrong = right === '111111' ? '222222' : '111111';
  const codeInput = page.getByRole('textbox', { name: 'Code (6 digits)' });
  await codeInput.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('Attempts left: 1');
  await codeInput.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectEnding(page, 'The code was not confirmed', 'codeNotConfirmed', 'end-code-failed');
});

test('no camera: the camera was not available', async () => {
  const browser = await launchWithoutCamera();
  const page = await (await browser.newContext()).newPage();
  const { session, clientSecret } = await idv.createSession({ flow: FLOW });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('No camera');
  await page.getByRole('button', { name: 'Continue without access' }).click();
  await expectEnding(page, 'The camera was not available', 'noCamera', 'end-no-camera');
  expect((await idv.getSession(session.id)).status).toBe('incomplete');
  await browser.close();
});
