import { expect, test } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { checkScreen, expectLivenessReady } from './support/pageChecks';

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
      { id: 'ready', condition: 'The user agrees', targetNodeId: 'live' },
      { id: 'other', condition: '', targetNodeId: 'end' },
    ],
  },
  {
    id: 'live',
    type: 'liveness_detection',
    // The fake camera shows no face: with the longest time limit the capture it runs cannot end
    // the node (noFace) before the panel does, however slow the machine.
    timeoutSeconds: 600,
    outcomes: { livenessDetected: 'sms', deepfakeDetected: 'end', noFace: 'end' },
  },
  {
    id: 'sms',
    type: 'two_factor_sms',
    outcomes: { verified: 'end', failed_unverified: 'end', cancelled: 'end' },
  },
  { id: 'end', type: 'end' },
];

test('a test session picks outcomes from the panel, codes are 000000', async ({ page }) => {
  const { session, clientSecret } = await idv.createSession({ flow: FLOW }, idv.keys.test);
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);

  await expect(page.getByRole('note')).toHaveText(
    'Test mode: nothing is sent, and every code is 000000.',
  );
  const panel = page.getByRole('complementary', {
    name: 'Tester: choose the outcome of this step',
  });
  // Every outcome of the node, the unrouted one included.
  await expect(panel.getByRole('button')).toHaveText([
    /Permissions granted.*permissionsGranted → talk/,
    /Permissions denied.*permissionsDenied → end/,
  ]);
  await checkScreen(page, 'test-mode-permissions');
  await panel.getByRole('button', { name: /Permissions granted/ }).click();

  // A conversation's outcomes show their conditions.
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'talk');
  await expect(panel.getByRole('button')).toHaveText([
    /ready.*The user agrees.*ready → live/,
    /other.*\(always\).*other → end/,
  ]);
  await panel.getByRole('button', { name: /^ready/ }).click();

  // In test mode the panel may decide the camera node while its screen runs.
  await expect(
    page.getByRole('heading', { level: 1, name: 'Show that it is really you' }),
  ).toBeVisible();
  await expect(panel.getByRole('button')).toHaveCount(4);
  // The screen checked is the settled one: camera live, face detector loaded, capture running.
  await expectLivenessReady(page);
  await checkScreen(page, 'test-mode-liveness');
  await panel.getByRole('button', { name: /Live person detected/ }).click();

  // The SMS code through the page itself: no phone known, so the page asks for one.
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirm your phone number' }),
  ).toBeVisible();
  await expect(page.getByText('Test mode: enter 000000.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Phone number' }).fill('0612');
  await page.getByRole('button', { name: 'Send the code' }).click();
  await expect(page.getByRole('alert')).toContainText('country code');
  await page.getByRole('textbox', { name: 'Phone number' }).fill('+33 6 12 34 56 78');
  await page.getByRole('button', { name: 'Send the code' }).click();
  await page.getByRole('textbox', { name: 'Code (6 digits)' }).fill('000000');
  await checkScreen(page, 'test-mode-sms-code');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();

  const result = await idv.getSession(session.id, idv.keys.test);
  expect(result.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'perm:permissionsGranted',
    'talk:ready',
    'live:livenessDetected',
    'sms:verified',
  ]);
  expect(result.status).toBe('complete');
});

test('a live session has no banner and no panel', async ({ page }) => {
  const { clientSecret } = await idv.createSession({ flow: FLOW }, idv.keys.live);
  await page.goto(clientSecret.url);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Camera and microphone' }),
  ).toBeVisible();
  await expect(page.getByRole('note')).toHaveCount(0);
  await expect(page.getByRole('complementary')).toHaveCount(0);
});
