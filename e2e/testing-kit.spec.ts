// The QA kit (`open-idv/testing`) as an integrator's QA team uses it: a session made with the
// typed client (`open-idv/sdk`) and a test key, driven along a path of outcomes in Chromium.
import { expect, test } from '@playwright/test';
import { createIdvClient } from 'open-idv/sdk';
import { driveTestSession, outcomeButton, testPanel } from 'open-idv/testing';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'talk', permissionsDenied: 'end' },
  },
  {
    id: 'talk',
    type: 'conversation',
    prompt: 'Say: Are you ready?',
    outcomes: [
      { id: 'ready', condition: 'The user agrees', targetNodeId: 'otp' },
      { id: 'other', condition: '', targetNodeId: 'end' },
    ],
  },
  {
    id: 'otp',
    type: 'two_factor_email',
    outcomes: { verified: 'otp2', failed_unverified: 'end' },
  },
  // The same outcome twice in a row: the kit must wait for the page to move on between them.
  {
    id: 'otp2',
    type: 'two_factor_email',
    outcomes: { verified: 'end', failed_unverified: 'end' },
  },
  { id: 'end', type: 'end' },
] as const;

const client = () => createIdvClient({ apiKey: idv.keys.test, baseUrl: idv.url });
type Flow = Parameters<ReturnType<typeof client>['sessions']['create']>[0]['flow'];

test('drives a test session along a path of outcomes, no clicks of its own', async ({ page }) => {
  const sdk = client();
  const { session, clientSecret } = await sdk.sessions.create({
    flow: FLOW as unknown as Flow,
    providedData: { email: 'qa@example.com' },
  });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });

  const steps = await driveTestSession(page, {
    url: clientSecret.url,
    path: ['permissionsGranted', { node: 'talk', outcome: 'ready' }, 'verified', 'verified'],
  });

  expect(steps).toEqual([
    { node: 'perm', outcome: 'permissionsGranted', target: 'talk' },
    { node: 'talk', outcome: 'ready', target: 'otp' },
    { node: 'otp', outcome: 'verified', target: 'otp2' },
    { node: 'otp2', outcome: 'verified', target: 'end' },
  ]);
  const done = await sdk.sessions.retrieve(session.id);
  expect(done.session.status).toBe('complete');
  expect(done.session.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'perm:permissionsGranted',
    'talk:ready',
    'otp:verified',
    'otp2:verified',
  ]);
});

test('outcomes scripted at creation: the session ends with no clicks at all', async ({ page }) => {
  const sdk = client();
  const { session, clientSecret } = await sdk.sessions.create({
    flow: FLOW as unknown as Flow,
    testOutcomes: { perm: 'permissionsGranted', talk: 'ready', otp: 'verified', otp2: 'verified' },
  });
  await page.goto(clientSecret.url);
  // Opening the page is all it takes: the server ends each scripted node by itself.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'We have received your verification',
  );
  await expect(testPanel(page)).toHaveCount(0);
  const done = await sdk.sessions.retrieve(session.id);
  expect(done.session.status).toBe('complete');
  expect(done.session.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'perm:permissionsGranted',
    'talk:ready',
    'otp:verified',
    'otp2:verified',
  ]);
});

test('an outcome that leads nowhere ends the session incomplete', async ({ page }) => {
  const sdk = client();
  const { session, clientSecret } = await sdk.sessions.create({ flow: FLOW as unknown as Flow });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  const steps = await driveTestSession(page, {
    url: clientSecret.url,
    path: ['permissionsGranted', 'ready', { node: 'otp', outcome: 'cancelled' }],
  });
  expect(steps.at(-1)).toEqual({ node: 'otp', outcome: 'cancelled', target: null });
  await expect(testPanel(page)).toHaveCount(0);
  expect((await sdk.sessions.retrieve(session.id)).session.status).toBe('incomplete');
});

test('says which step it could not take, and what the page showed', async ({ page }) => {
  const { clientSecret } = await client().sessions.create({ flow: FLOW as unknown as Flow });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);
  // The panel is there and offers the node's outcomes, but not the one asked for.
  await expect(outcomeButton(page, 'permissionsGranted')).toBeVisible();
  const err = await driveTestSession(page, {
    path: [{ node: 'perm', outcome: 'verified' }],
    stepTimeoutMs: 1000,
  }).catch((e: unknown) => e as Error);
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toMatch(
    /^step 1 \(perm: verified\): the test panel never offered it; the page shows "/,
  );
});
