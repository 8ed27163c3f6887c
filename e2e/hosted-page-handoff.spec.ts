import { createServer, type Server } from 'node:http';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { checkScreen, expectLivenessReady } from './support/pageChecks';

// Continue on a phone (docs/client-api.md): a desktop without a camera (the spec's default
// browser, launched without Chromium's fake devices) embeds the page; a phone (its own browser,
// with the fake camera) opens the link from the QR code and finishes; the desktop follows.

/** The camera node, then a step without one: the phone goes through both. */
const FLOW = [
  { id: 'start', type: 'start', outcome: 'live' },
  {
    id: 'live',
    type: 'liveness_detection',
    challenges: 1,
    outcomes: {
      livenessDetected: 'mail',
      deepfakeDetected: 'refused',
      noFace: 'refused',
      inconclusive: 'refused',
    },
  },
  { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'done', canceled: 'refused' } },
  { id: 'done', type: 'end' },
  { id: 'refused', type: 'end' },
];

/** The integrator's checkout page on another origin, framing the hosted page. */
async function shopSite(): Promise<{
  origin: string;
  pageFor(src: string): string;
  close(): Promise<void>;
}> {
  let framed = 'about:blank';
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<h1>Shop checkout</h1>
<iframe id="idv" title="Identity verification" src="${framed}" allow="camera; microphone" width="460" height="800"></iframe>
<script>
window.__messages = [];
addEventListener('message', (e) => window.__messages.push({ origin: e.origin, data: e.data }));
</script></body></html>`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    origin,
    pageFor(src) {
      framed = src;
      return `${origin}/checkout`;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

interface Received {
  origin: string;
  data: { source: string; type: string; nodeId?: string; index?: number };
}
const messages = async (page: Page) =>
  (await page.evaluate(() => (window as unknown as { __messages: Received[] }).__messages)).map(
    (m) => m.data,
  );

let idv: IdvServer;
let shop: Awaited<ReturnType<typeof shopSite>>;
let phoneBrowser: Browser;
test.beforeAll(async () => {
  idv = await startIdv();
  shop = await shopSite();
  phoneBrowser = await chromium.launch(FAKE_MEDIA_LAUNCH);
});
test.afterAll(async () => {
  await phoneBrowser?.close();
  await shop?.close();
  await idv?.stop();
});

test('a desktop without a camera hands the session to a phone and follows it to the end', async ({
  browser,
}) => {
  // Plain http embedders are for test sessions: the tester's panel decides the camera node on the
  // phone once its camera runs (the real analysis has its own specs).
  const { session, clientSecret } = await idv.createSession(
    { flow: FLOW, embedOrigins: [shop.origin] },
    idv.keys.test,
  );

  // The desktop: no camera device at all. Access is allowed, so what the browser says is
  // "no camera found" (NotFoundError), not a refusal.
  const desktopContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await desktopContext.grantPermissions(['camera', 'microphone'], { origin: shop.origin });
  const desktop = await desktopContext.newPage();
  await desktop.goto(shop.pageFor(clientSecret.url));
  const frame = desktop.frameLocator('#idv');
  await frame.getByRole('button', { name: 'Continue', exact: true }).click();
  // No camera found: the camera node offers the phone at once.
  const offer = frame.getByTestId('handoff-offer');
  await expect(
    offer.getByRole('heading', { level: 1, name: 'Continue on your phone' }),
  ).toBeVisible();
  await expect(
    offer.getByText('No camera was found on this device.', { exact: false }),
  ).toBeVisible();
  await expect(offer.getByRole('img', { name: /QR code/ })).toBeVisible();
  const link = offer.getByTestId('handoff-url');
  const url = (await link.getAttribute('href')) ?? '';
  expect(url).toMatch(new RegExp(`^${idv.url}/p/[A-Z2-9]{12}$`));
  await checkScreen(desktop, 'handoff-offer');

  // The phone: its own browser, with a camera.
  const phoneContext = await phoneBrowser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await phoneContext.grantPermissions(['camera', 'microphone'], { origin: idv.url });
  const phone = await phoneContext.newPage();
  await phone.goto(url);
  // The code is spent: the address no longer holds it, a reload resumes with the phone's token.
  await expect(phone).not.toHaveURL(/handoff=/);

  // The desktop sees that the phone has the session, and where it is.
  const watch = frame.getByTestId('phone-watch');
  await expect(
    watch.getByRole('heading', { level: 1, name: 'Continue on your phone…' }),
  ).toBeVisible();
  await expect(watch.getByTestId('phone-step')).toHaveText('Your phone is at step 1 of 2.');
  await checkScreen(desktop, 'handoff-watching');

  // The same link on another phone: already used.
  const other = await phoneContext.newPage();
  await other.goto(url);
  await expect(
    other.getByRole('heading', { level: 1, name: 'This link has already been used' }),
  ).toBeVisible();
  await other.close();

  // The phone asks for its camera in front of the camera node and films.
  await phone.getByRole('button', { name: 'Continue', exact: true }).click();
  await expectLivenessReady(phone);
  await checkScreen(phone, 'handoff-phone-liveness');
  const panel = phone.getByRole('complementary', {
    name: 'Tester: choose the outcome of this step',
  });
  await panel.getByRole('button', { name: /Live person detected/ }).click();
  await expect(phone.locator('main#step')).toHaveAttribute('data-node-id', 'mail');
  await expect(watch.getByTestId('phone-step')).toHaveText('Your phone is at step 2 of 2.');
  // The phone counts its steps from the flow as the server moves it.
  await expect(phone.getByTestId('step-progress')).toHaveText('Step 2 of 2');

  await phone.getByRole('textbox', { name: 'Email address' }).fill('jo@example.com');
  await phone.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(phone.locator('main#step')).toHaveAttribute('data-state', 'ended');

  // The desktop ends with the phone, and its frame told the shop each step and the end.
  await expect(frame.locator('main#step')).toHaveAttribute('data-state', 'ended');
  await checkScreen(desktop, 'handoff-desktop-ended');
  await expect
    .poll(async () =>
      (await messages(desktop)).map((m) => `${m.type}:${m.nodeId ?? ''}:${m.index ?? ''}`),
    )
    .toEqual(['ready::', 'step:live:1', 'step:mail:2', 'complete::']);
  for (const m of await messages(desktop)) expect(m.source).toBe('idv-hosted-page');

  const result = await idv.getSession(session.id, idv.keys.test);
  expect(result.status).toBe('complete');
  expect(result.report.nodeReports.map((r) => `${r.nodeId}:${r.outcome}`)).toEqual([
    'live:livenessDetected',
    'mail:emailEntered',
  ]);
  await phoneContext.close();
  await desktopContext.close();
});
