import { createServer, type Server } from 'node:http';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { KYC_FLOW } from './support/flows';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { checkScreen } from './support/pageChecks';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });
test.describe.configure({ mode: 'serial' });

/**
 * An integrator's page on another origin (another port of 127.0.0.1) that embeds a URL. Plain http
 * on a loopback host is an embedOrigin of test sessions only (docs/hosted-page.md), so the
 * sessions it frames are made with the test key.
 */
async function parentSite(): Promise<{
  origin: string;
  pageFor(src: string): string;
  close(): Promise<void>;
}> {
  const frames = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const src = frames.get(req.url ?? '') ?? 'about:blank';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<h1>Shop checkout</h1>
<iframe id="idv" title="Identity verification" src="${src}" allow="camera; microphone" width="420" height="760"></iframe>
<script>
window.__messages = [];
addEventListener('message', (e) => window.__messages.push({ origin: e.origin, data: e.data }));
</script></body></html>`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let n = 0;
  return {
    origin,
    pageFor(src) {
      const path = `/checkout-${++n}`;
      frames.set(path, src);
      return `${origin}${path}`;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

interface Received {
  origin: string;
  data: { source: string; type: string; sessionId: string; nodeId?: string; index?: number };
}
const messages = (page: Page) =>
  page.evaluate(() => (window as unknown as { __messages: Received[] }).__messages);

let idv: IdvServer;
let shop: Awaited<ReturnType<typeof parentSite>>;
let stranger: Awaited<ReturnType<typeof parentSite>>;
test.beforeAll(async () => {
  idv = await startIdv();
  shop = await parentSite();
  stranger = await parentSite();
});
test.afterAll(async () => {
  await idv?.stop();
  await shop?.close();
  await stranger?.close();
});

test('the flow inside an iframe of another origin reports its events to that parent', async ({
  page,
}) => {
  const { session, clientSecret } = await idv.createSession(
    { flow: KYC_FLOW, embedOrigins: [shop.origin], redirectUrl: 'https://shop.example/done' },
    idv.keys.test,
  );
  // Chromium keys a frame's camera permission by the top-level site: the shop grants it.
  await page.context().grantPermissions(['camera', 'microphone'], { origin: shop.origin });
  await page.goto(shop.pageFor(clientSecret.url));
  const frame: FrameLocator = page.frameLocator('#idv');

  await frame.getByRole('button', { name: 'Continue', exact: true }).click();
  await frame.getByRole('textbox', { name: 'Your answer' }).fill('yes');
  await frame.getByRole('button', { name: 'Send' }).click();
  await frame.getByRole('textbox', { name: 'Email address' }).fill('frame.user@example.com');
  await frame.getByRole('button', { name: 'Continue', exact: true }).click();
  await frame.getByRole('button', { name: 'Send the code' }).click();
  // A test session sends nothing: its code is 000000.
  await frame.getByRole('textbox', { name: 'Code (6 digits)' }).fill('000000');
  await frame.getByRole('button', { name: 'Verify' }).click();
  await expect(
    frame.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();
  // In a frame the parent takes over: no redirect button.
  await expect(frame.getByRole('link', { name: /Return to/ })).toHaveCount(0);
  await checkScreen(page, 'embedded-end');

  await expect.poll(async () => (await messages(page)).length).toBeGreaterThanOrEqual(6);
  const got = await messages(page);
  expect(new Set(got.map((m) => m.origin))).toEqual(new Set([idv.url]));
  expect(
    got.every((m) => m.data.source === 'idv-hosted-page' && m.data.sessionId === session.id),
  ).toBe(true);
  expect(got.map((m) => [m.data.type, m.data.nodeId ?? '', m.data.index ?? 0])).toEqual([
    ['ready', '', 0],
    ['step', 'perm', 1],
    ['step', 'ask', 2],
    ['step', 'mail', 3],
    ['step', 'otp', 4],
    ['complete', '', 0],
  ]);
  expect((await idv.getSession(session.id, idv.keys.test)).status).toBe('complete');
});

test('a reload inside the iframe after the exchange resumes where the user was', async ({
  page,
}) => {
  const { session, clientSecret } = await idv.createSession(
    { flow: KYC_FLOW, embedOrigins: [shop.origin] },
    idv.keys.test,
  );
  await page.context().grantPermissions(['camera', 'microphone'], { origin: shop.origin });
  await page.goto(shop.pageFor(clientSecret.url));
  const frame: FrameLocator = page.frameLocator('#idv');
  await frame.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(frame.getByRole('textbox', { name: 'Your answer' })).toBeVisible();

  // The spent secret has left the frame's address; the session id took its place.
  const inner = page.frames().find((f) => f.url().startsWith(idv.url))!;
  expect(inner.url()).toBe(`${idv.url}/verify?session=${session.id}`);
  // Wait for the reload itself, not for the page it replaces.
  const reloaded = page.waitForEvent('framenavigated', (f) => f === inner);
  await inner.evaluate(() => window.location.reload());
  await reloaded;
  // Refused framing would leave the frame empty; the resumed page is at the same step.
  await expect(frame.getByRole('textbox', { name: 'Your answer' })).toBeVisible();
  expect(inner.url()).toBe(`${idv.url}/verify?session=${session.id}`);
});

test('a parent that is not allowed neither frames the page nor hears from it', async ({ page }) => {
  const { clientSecret } = await idv.createSession(
    { flow: KYC_FLOW, embedOrigins: [shop.origin] },
    idv.keys.test,
  );
  await page.goto(stranger.pageFor(clientSecret.url));
  // Refused by frame-ancestors, the frame holds Chromium's error page: wait for that state
  // (a page that was let in would hold our URL, and its messages would follow).
  const framed = () => page.frames().filter((f) => f !== page.mainFrame());
  await expect.poll(() => framed().map((f) => f.url())).toEqual(['chrome-error://chromewebdata/']);
  await expect(page.frameLocator('#idv').getByRole('heading', { level: 1 })).toHaveCount(0);
  expect(await messages(page)).toEqual([]);
});

test('a redirected user gets a way back to redirectUrl', async ({ page }) => {
  const { clientSecret } = await idv.createSession({
    flow: [
      { id: 'start', type: 'start', outcome: 'mail' },
      { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'end' } },
      { id: 'end', type: 'end' },
    ],
    redirectUrl: 'https://shop.example/after-verification',
  });
  await page.goto(clientSecret.url);
  await page.getByRole('textbox', { name: 'Email address' }).fill('r@example.com');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const back = page.getByRole('link', { name: 'Return to shop.example' });
  await expect(back).toHaveAttribute('href', 'https://shop.example/after-verification');
});
