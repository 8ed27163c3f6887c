import { expect, test, type Page } from '@playwright/test';
import { CAMERA_FLOW, KYC_FLOW } from './support/flows';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { checkScreen, expectLivenessReady } from './support/pageChecks';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });
test.describe.configure({ mode: 'serial' });

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const settings = (page: Page) => page.getByRole('navigation', { name: 'Page settings' });

test('the master switch hides the whole panel and silences captionsOpenedByDefault', async ({
  page,
}) => {
  const { clientSecret } = await idv.createSession({
    flow: KYC_FLOW,
    initialPhrase: 'Hello there.',
    customization: { controls: { showUxControls: false, captionsOpenedByDefault: true } },
  });
  await page.goto(clientSecret.url);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Camera and microphone' }),
  ).toBeVisible();
  await expect(settings(page)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Transcript' })).toHaveCount(0);
  // The guide's words stay on screen without the panel.
  await expect(page.getByTestId('avatar-words')).toContainText('Hello there.');
});

test('captions open by default when asked, and the user can close and reopen them', async ({
  page,
}) => {
  const { clientSecret } = await idv.createSession({
    flow: KYC_FLOW,
    initialPhrase: 'Hello there.',
    customization: { controls: { captionsOpenedByDefault: true } },
  });
  await page.goto(clientSecret.url);
  const transcript = page.getByRole('region', { name: 'Transcript' });
  await expect(transcript).toBeVisible();
  await expect(transcript.getByRole('listitem')).toContainText(['Hello there.']);
  await checkScreen(page, 'captions-open');
  await settings(page).getByRole('button', { name: 'Hide transcript' }).click();
  await expect(transcript).toHaveCount(0);
  await settings(page).getByRole('button', { name: 'Show transcript' }).click();
  await expect(transcript).toBeVisible();
});

test('captions are closed by default', async ({ page }) => {
  const { clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  await page.goto(clientSecret.url);
  await expect(settings(page).getByRole('button', { name: 'Show transcript' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Transcript' })).toHaveCount(0);
});

test.describe('in French', () => {
  test.use({ locale: 'fr-FR' });

  test('the permissions page takes every customization field and its translation', async ({
    page,
  }) => {
    const { session, clientSecret } = await idv.createSession({
      flow: KYC_FLOW,
      langs: ['en', 'fr'],
      customization: {
        permissionsPage: {
          mainHeading: 'Before we start',
          mainHeadingTranslates: { fr: 'Avant de commencer' },
          subheading: 'We need your camera.',
          subheadingTranslates: { fr: 'Nous avons besoin de votre caméra.' },
          buttonText: 'Go',
          buttonTextTranslates: { fr: 'Allons-y' },
          backgroundType: 'COLOR',
          backgroundColor: '#123456',
        },
      },
    });
    await page.goto(clientSecret.url);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    const card = page.locator('section.permissions');
    await expect(card.getByRole('heading', { level: 1 })).toHaveText('Avant de commencer');
    await expect(card).toContainText('Nous avons besoin de votre caméra.');
    await expect(card).toHaveCSS('background-color', 'rgb(18, 52, 86)');
    await expect(card).toHaveCSS('color', 'rgb(255, 255, 255)');
    await checkScreen(page, 'permissions-color-fr');
    await expect.poll(async () => (await idv.getSession(session.id)).report.lang).toBe('fr');

    // The language can be changed from the panel; the page follows and the server records it.
    await page
      .getByRole('navigation', { name: 'Réglages de la page' })
      .getByRole('combobox', { name: 'Langue' })
      .selectOption('en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(card.getByRole('heading', { level: 1 })).toHaveText('Before we start');
    await expect(card.getByRole('button', { name: 'Go' })).toBeVisible();
    await expect.poll(async () => (await idv.getSession(session.id)).report.lang).toBe('en');
  });
});

test('the avatar background shows the avatar image', async ({ page }) => {
  const { clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  await page.goto(clientSecret.url);
  const image = page.locator('section.permissions img.permissions-avatar-image');
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('a denial explains itself and a retry after allowing access carries on', async ({ page }) => {
  const { session, clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Access was blocked');
  // The steps of this browser (Chromium on a computer), not words for every browser at once.
  await expect(page.getByTestId('denial-help')).toHaveText(/^In Chrome or Edge: click the icon/);
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await checkScreen(page, 'permissions-denied');
  // The user allows access in the browser's site settings: the page notices (Permissions API)
  // and asks again by itself; "Try again" does the same by hand where the browser cannot tell.
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await expect(page.getByRole('textbox', { name: 'Your answer' })).toBeVisible();
  expect((await idv.getSession(session.id)).report.nodeReports[0]).toMatchObject({
    nodeId: 'perm',
    outcome: 'permissionsGranted',
  });
});

test('the steps after a denial are those of the browser the user has', async ({ browser }) => {
  const agents = [
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36',
      /^In Samsung Internet: tap the lock icon/,
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      /^On an iPhone or iPad: tap “aA”/,
    ],
  ] as const;
  for (const [userAgent, steps] of agents) {
    const context = await browser.newContext({ userAgent });
    try {
      const page = await context.newPage();
      const { clientSecret } = await idv.createSession({ flow: KYC_FLOW });
      await page.goto(clientSecret.url);
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await expect(page.getByRole('alert')).toContainText('Access was blocked');
      await expect(page.getByTestId('denial-help')).toHaveText(steps);
    } finally {
      await context.close();
    }
  }
});

test('going on without access reports permissionsDenied', async ({ page }) => {
  const { session, clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('button', { name: 'Continue without access' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'We have received your verification' }),
  ).toBeVisible();
  const result = await idv.getSession(session.id);
  expect(result.report.nodeReports[0]).toMatchObject({ outcome: 'permissionsDenied' });
  expect(result.report.isVerified).toBe(false);
});

test('a flow without a permissions node asks at the first node that needs the camera', async ({
  page,
}) => {
  const { clientSecret } = await idv.createSession({ flow: CAMERA_FLOW });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);
  // The email step needs no device: no question yet.
  await page.getByRole('textbox', { name: 'Email address' }).fill('cam@example.com');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const ask = page.locator('section.permissions');
  // Only the camera is asked for: the page names only the camera.
  await expect(ask.getByRole('heading', { level: 1, name: 'Camera', exact: true })).toBeVisible();
  await expect(ask.locator('ul.device-list').first().getByRole('listitem')).toHaveText(['Camera']);
  await ask.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Show that it is really you' }),
  ).toBeVisible();
  // The screen checked is the settled one: camera live, face detector loaded.
  await expectLivenessReady(page);
  await checkScreen(page, 'liveness-after-ask');
});
