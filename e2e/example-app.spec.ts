// The example integrator app (examples/verify-to-continue) against the real service: a visitor
// goes through "verify to continue" by redirect and inside an iframe, the QA kit decides the
// test-mode session's steps, and the app shows the result its webhook receiver was told.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createIdvClient } from 'open-idv/sdk';
import { driveTestSession } from 'open-idv/testing';
import { FAKE_MEDIA_LAUNCH, freePort, startIdv, type IdvServer } from './support/idvServer';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });
test.describe.configure({ mode: 'serial' });

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The example app as its README starts it against a running service (IDV_URL and the rest). */
async function startExample(env: Record<string, string>): Promise<ChildProcess> {
  let output = '';
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'examples/verify-to-continue/main.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((ok, fail) => {
    const seen = () => output.includes('Example app on ') && ok();
    child.stdout?.on('data', seen);
    child.once('exit', () => fail(new Error(`the example app exited:\n${output}`)));
  });
  return child;
}

let idv: IdvServer;
let app: ChildProcess;
let appUrl: string;
test.beforeAll(async () => {
  idv = await startIdv();
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  // As an operator registers the site's endpoint; the secret is printed once.
  const secret = await idv.cli(
    'webhooks',
    'add',
    `${appUrl}/webhooks`,
    '--account',
    'e2e',
    '--mode',
    'test',
    '--events',
    'session.status',
  );
  app = await startExample({
    PORT: String(port),
    HOST: '127.0.0.1',
    IDV_URL: idv.url,
    IDV_API_KEY: idv.keys.test,
    IDV_WEBHOOK_SECRET: secret,
  });
});
test.afterAll(async () => {
  if (app && app.exitCode === null) {
    app.kill('SIGTERM');
    await new Promise((r) => app.once('exit', r));
  }
  await idv?.stop();
});

const PATH = [
  { node: 'email', outcome: 'emailEntered' },
  { node: 'code', outcome: 'verified' },
];

const VERIFIED = { verdict: 'Verified: welcome in', status: 'complete', verified: true };

/** The result page once the webhook said the session ended; resolves with the session id shown. */
async function expectResult(
  page: Page,
  want: { verdict: string; status: string; verified: boolean },
): Promise<string> {
  // The page reloads itself until the webhook has come: the heading waits for it.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(want.verdict);
  const fromWebhook = page.getByRole('region', { name: 'From the webhook' });
  await expect(fromWebhook.getByRole('definition')).toHaveText([
    /^evt_\w+$/,
    want.status,
    want.verified ? 'yes' : 'no',
  ]);
  const fromApi = page.getByRole('region', { name: 'Retrieved with the client' });
  // Session, status, then the steps.
  const shown = fromApi.getByRole('definition');
  await expect(shown.nth(1)).toHaveText(want.status);
  return (await shown.nth(0).textContent()) ?? '';
}

test('by redirect: the hosted page, back to the site, verified by webhook', async ({ page }) => {
  await page.goto(appUrl);
  await page.getByRole('button', { name: 'Verify on the verification page' }).click();
  await page.waitForURL(`${idv.url}/**`);

  const steps = await driveTestSession(page, { path: PATH });
  expect(steps.map((s) => s.target)).toEqual(['code', 'done']);
  await page.getByRole('link', { name: 'Return to 127.0.0.1' }).click();

  const sessionId = await expectResult(page, VERIFIED);
  await expect(page.getByRole('listitem')).toHaveText(['email: emailEntered', 'code: verified']);
  const sdk = createIdvClient({ apiKey: idv.keys.test, baseUrl: idv.url });
  const { session } = await sdk.sessions.retrieve(sessionId);
  expect([session.status, session.report.isVerified]).toEqual(['complete', true]);
});

test('embedded: the hosted page in an iframe of the site, verified by webhook', async ({
  page,
}) => {
  await page.goto(appUrl);
  await page.getByRole('button', { name: 'Verify here, in this page' }).click();
  const frame = page.frameLocator('iframe[title="Identity verification"]');

  await driveTestSession(frame, { path: PATH });
  // The hosted page tells its parent it ended; the site then shows the result.
  await expectResult(page, VERIFIED);
});

test('a session that fails its code is not verified', async ({ page }) => {
  await page.goto(appUrl);
  await page.getByRole('button', { name: 'Verify on the verification page' }).click();
  await page.waitForURL(`${idv.url}/**`);
  await driveTestSession(page, { path: ['emailEntered', 'failed_unverified'] });
  await page.getByRole('link', { name: 'Return to 127.0.0.1' }).click();
  await expectResult(page, { verdict: 'Not verified', status: 'incomplete', verified: false });
});

test('the webhook receiver refuses a request its secret did not sign', async () => {
  const body = JSON.stringify({
    id: 'evt_forged',
    type: 'session.status',
    createdAt: Date.now(),
    sessionId: 'sess_forged',
  });
  const answer = await fetch(`${appUrl}/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-signature': `t=${Date.now()},v1=${'0'.repeat(64)}`,
    },
    body,
  });
  expect(answer.status).toBe(401);
});
