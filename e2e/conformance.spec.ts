/**
 * The conformance suite in a real browser: a test-mode session through the built page (the
 * tester's panel, the email and code screens), then the session as an integrator retrieves it,
 * checked against the original product's SDK shapes (src/server/conformance/shapes).
 */
import { expect, test, type Page } from '@playwright/test';
import { CONFORMANCE_FLOW } from '../src/server/conformance/flow';
import { conformanceProblems } from '../src/server/conformance/shape';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

/** Waits for the node's step, then picks the outcome in the tester's panel. */
async function choose(page: Page, nodeId: string, outcome: string): Promise<void> {
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', nodeId);
  const panel = page.getByRole('complementary', {
    name: 'Tester: choose the outcome of this step',
  });
  await panel.getByRole('button', { name: new RegExp(`\\b${outcome} →`) }).click();
}

/** Sends the code of a two-factor step and enters test mode's 000000. */
async function code(page: Page, nodeId: string, heading: string): Promise<void> {
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', nodeId);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await page.getByRole('button', { name: 'Send the code' }).click();
  await page.getByRole('textbox', { name: 'Code (6 digits)' }).fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
}

test('a session run through the page reads back in the SDK shapes', async ({ page }) => {
  const created = await fetch(`${idv.url}/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${idv.keys.test}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      flow: CONFORMANCE_FLOW,
      metadata: { plan: 'pro', seats: '5' },
      providedData: { phone: '+33612345678' },
      videoAIAnalysisEnabled: true,
    }),
  });
  expect(created.status).toBe(200);
  const createdBody = await created.json();
  expect(conformanceProblems(createdBody, 'responses#create')).toEqual([]);

  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(createdBody.clientSecret.url);
  await choose(page, 'perm', 'permissionsGranted');
  await choose(page, 'ask', 'yes');
  await expect(page.getByRole('heading', { level: 1, name: 'Your email address' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email address' }).fill('qa@example.com');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await code(page, 'otp', 'Confirm your email address');
  await code(page, 'sms', 'Confirm your phone number');
  await choose(page, 'live', 'livenessDetected');
  await choose(page, 'doc', 'scanSuccess');
  await choose(page, 'scan', 'passed');
  await choose(page, 'cmp', 'match');
  await choose(page, 'rec', 'newUser');
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();

  const res = await fetch(`${idv.url}/sessions/${createdBody.session.id}`, {
    headers: { authorization: `Bearer ${idv.keys.test}` },
  });
  const body = await res.json();
  expect(conformanceProblems(body, 'responses#retrieve')).toEqual([]);
  const { report } = body.session;
  expect(body.session.status).toBe('complete');
  // Chromium's own User-Agent, as express-useragent reads it.
  expect(report.device).toMatchObject({ isChrome: true, isDesktop: true, geoIp: {} });
  expect(report.device.source).toContain('Chrome');
  expect(report.videoAIAnalysisStatus).toBe('pending');
  const byNode = Object.fromEntries(
    report.nodeReports.map((n: { nodeId: string }) => [n.nodeId, n]),
  ) as Record<string, { email?: string; report?: Record<string, string> }>;
  expect(byNode['email']?.email).toBe('qa@example.com');
  expect(byNode['otp']?.report?.['email']).toMatch(/@example\.com$/);
  expect(byNode['sms']?.report?.['phoneNumber']).toMatch(/^\+33/);
  for (const n of report.nodeReports) expect(conformanceProblems(n, 'node-report')).toEqual([]);

  const list = await fetch(`${idv.url}/sessions?limit=10`, {
    headers: { authorization: `Bearer ${idv.keys.test}` },
  });
  expect(conformanceProblems(await list.json(), 'responses#list')).toEqual([]);
});
