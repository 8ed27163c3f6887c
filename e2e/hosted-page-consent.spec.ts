import { expect, test, type Page } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { checkScreen } from './support/pageChecks';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });

// Consent and disclosure come before the camera: the page says what it captures, why, how long
// and for whom, records the choice before the browser is asked for the camera, and a user who
// declines ends incomplete with nothing captured.

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'live' } },
  { id: 'live', type: 'liveness_detection', outcomes: { livenessDetected: 'done' } },
  { id: 'done', type: 'end' },
];

/** Records in the page, in order, the consent request and every camera request it makes. */
async function watchOrder(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const order: string[] = [];
    (window as unknown as { __order: string[] }).__order = order;
    const fetchBefore = window.fetch.bind(window);
    window.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/client/consent')) {
        order.push('consent');
      }
      return fetchBefore(input, init);
    };
    const media = navigator.mediaDevices;
    const gumBefore = media.getUserMedia.bind(media);
    media.getUserMedia = (constraints) => {
      order.push('camera');
      return gumBefore(constraints);
    };
  });
  return () => page.evaluate(() => [...(window as unknown as { __order: string[] }).__order]);
}

test('the disclosure comes first; agreeing is recorded before the camera is asked', async ({
  page,
}) => {
  const orderOf = await watchOrder(page);
  const { session, clientSecret } = await idv.createSession({
    flow: FLOW,
    customization: {
      consent: {
        organizationName: 'Acme Bank',
        privacyUrl: 'https://acme.test/privacy',
        retentionDays: 30,
      },
    },
  });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);
  const notice = page.getByTestId('consent');
  await expect(notice).toContainText('Acme Bank asks for this identity verification.');
  await expect(notice).toContainText('a video recording of this session');
  await expect(notice).toContainText('They are kept for 30 days, then deleted.');
  await expect(notice.getByRole('link', { name: 'Read the privacy notice' })).toHaveAttribute(
    'href',
    'https://acme.test/privacy',
  );
  await checkScreen(page, 'consent');
  expect(await orderOf()).toEqual([]);

  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'live');
  const order = await orderOf();
  expect(order[0]).toBe('consent');
  expect(order).toContain('camera');
  const s = await idv.getSession(session.id);
  expect(s.report.consent).toEqual({
    choice: 'accepted',
    textVersion: '2026-11-25',
    at: expect.any(Number),
  });
});

test('declining ends the session incomplete, and the camera is never asked', async ({ page }) => {
  const orderOf = await watchOrder(page);
  const { session, clientSecret } = await idv.createSession({ flow: FLOW });
  await page.goto(clientSecret.url);
  await expect(page.getByTestId('consent')).toContainText(
    'The service that sent you here asks for this identity verification.',
  );
  await page.getByRole('button', { name: 'I do not agree' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'You chose not to continue' }),
  ).toBeVisible();
  await expect(page.locator('section.end')).toHaveAttribute('data-end-reason', 'declined');
  expect(await orderOf()).toEqual(['consent']);
  const s = await idv.getSession(session.id);
  expect(s.status).toBe('incomplete');
  expect(s.report.consent).toMatchObject({ choice: 'declined', textVersion: '2026-11-25' });
});
