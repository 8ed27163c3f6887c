import { expect, test } from '@playwright/test';
import { KYC_FLOW } from './support/flows';
import { checkScreen } from './support/pageChecks';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });
test.describe.configure({ mode: 'serial' });

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

test('a second open of the same URL is refused', async ({ page, browser }) => {
  const { clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  await page.goto(clientSecret.url);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Camera and microphone' }),
  ).toBeVisible();

  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto(clientSecret.url);
  await expect(
    second.getByRole('heading', { level: 1, name: 'This link has already been used' }),
  ).toBeVisible();
  await expect(second).not.toHaveURL(/client_secret/);
  await checkScreen(second, 'error-used');
  await other.close();
});

test('a reload in the same tab resumes where the user was', async ({ page }) => {
  const { clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Your answer' })).toBeVisible();
  await page.reload();
  await expect(page.locator('main#step')).toHaveAttribute('data-node-id', 'ask');
  await expect(page.getByRole('textbox', { name: 'Your answer' })).toBeVisible();
});

test('an unknown secret and a missing one each get their page', async ({ page }) => {
  await page.goto(`${idv.url}/verify?client_secret=cs_not_a_real_secret`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'This link is not valid' }),
  ).toBeVisible();
  await checkScreen(page, 'error-invalid');

  await page.goto(`${idv.url}/verify`);
  await expect(page.getByRole('heading', { level: 1, name: 'No verification link' })).toBeVisible();
});

test('an expired secret gets its page', async ({ page }) => {
  const { clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  idv.expireSecret(clientSecret.secret);
  await page.goto(clientSecret.url);
  await expect(
    page.getByRole('heading', { level: 1, name: 'This link has expired' }),
  ).toBeVisible();
  await checkScreen(page, 'error-expired');
});

test('leaving ends the session incomplete', async ({ page }) => {
  const { session, clientSecret } = await idv.createSession({ flow: KYC_FLOW });
  await page.goto(clientSecret.url);
  await page.getByRole('button', { name: 'Leave' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'No, continue' })).toBeFocused();
  await checkScreen(page, 'exit-dialog');
  await dialog.getByRole('button', { name: 'Yes, leave' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'You left the verification' }),
  ).toBeVisible();
  await checkScreen(page, 'end-incomplete');
  expect((await idv.getSession(session.id)).status).toBe('incomplete');
});
