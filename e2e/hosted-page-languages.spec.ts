import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { checkScreen } from './support/pageChecks';

test.use({ launchOptions: FAKE_MEDIA_LAUNCH });
test.describe.configure({ mode: 'serial' });

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree): string[] =>
  Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : flatten(v)));
const english = flatten(
  JSON.parse(readFileSync(new URL('../locales/en.json', import.meta.url), 'utf8')) as Tree,
);

/**
 * The English phrases to look for on a translated page: every English string cut at its
 * `{{placeholders}}`, each piece kept when it is a phrase (two words or more) or a whole one-word
 * string (matched as a word).
 */
const probes = english.flatMap((text) =>
  text
    .split(/\{\{[^}]+\}\}/)
    .map((piece) => piece.trim().replace(/^[\s.,:;()]+|[\s.,:;()]+$/g, ''))
    .filter((piece) => /\p{L}{2}/u.test(piece))
    .filter((piece) => piece.split(/\s+/).length >= 2 || piece === text.trim()),
);

/** Every English phrase the page shows: visible text, labels, alternative texts and the title. */
async function englishOnScreen(page: Page): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const root = document.body.cloneNode(true) as HTMLElement;
    // Language names are written in their own language on purpose.
    root.querySelectorAll('select').forEach((s) => s.remove());
    const attrs = [...document.querySelectorAll('[aria-label], [alt], [title], [placeholder]')].map(
      (el) =>
        ['aria-label', 'alt', 'title', 'placeholder']
          .map((a) => el.getAttribute(a) ?? '')
          .join(' '),
    );
    return [document.title, document.body.innerText, root.textContent ?? '', ...attrs].join('\n');
  });
  return probes.filter((probe) =>
    probe.includes(' ')
      ? shown.includes(probe)
      : new RegExp(
          `(^|[^\\p{L}])${probe.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}]|$)`,
          'u',
        ).test(shown),
  );
}

const LANGS = [
  {
    lang: 'fr',
    locale: 'fr-FR',
    prompt: 'Say: Voulez-vous continuer la vérification ?',
    yes: 'Oui, bien sûr',
    heading: 'Caméra et micro',
    send: 'Envoyer',
    email: 'Adresse e-mail',
    continue: 'Continuer',
    sendCode: 'Envoyer le code',
    code: 'Code (6 chiffres)',
    verify: 'Vérifier',
    done: 'Nous avons bien reçu votre vérification',
    used: 'Ce lien a déjà été utilisé',
  },
  {
    lang: 'ru',
    locale: 'ru-RU',
    prompt: 'Say: Вы хотите продолжить проверку?',
    yes: 'Да, конечно',
    heading: 'Камера и микрофон',
    send: 'Отправить',
    email: 'Адрес электронной почты',
    continue: 'Продолжить',
    sendCode: 'Отправить код',
    code: 'Код из 6 цифр',
    verify: 'Подтвердить',
    done: 'Мы получили вашу проверку',
    used: 'Эта ссылка уже использована',
  },
  {
    lang: 'id',
    locale: 'id-ID',
    prompt: 'Say: Apakah Anda ingin melanjutkan verifikasi?',
    yes: 'Ya, tentu',
    heading: 'Kamera dan mikrofon',
    send: 'Kirim',
    email: 'Alamat email',
    continue: 'Lanjutkan',
    sendCode: 'Kirim kode',
    code: 'Kode (6 digit)',
    verify: 'Verifikasi',
    done: 'Kami telah menerima verifikasi Anda',
    used: 'Tautan ini sudah pernah digunakan',
  },
];

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

for (const l of LANGS) {
  test.describe(l.lang, () => {
    test.use({ locale: l.locale });

    test(`the page in ${l.lang} shows no English`, async ({ page, browser }) => {
      const email = `${l.lang}.user@example.com`;
      const { session, clientSecret } = await idv.createSession({
        flow: [
          { id: 'start', type: 'start', outcome: 'perm' },
          { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'ask' } },
          {
            id: 'ask',
            type: 'conversation',
            prompt: l.prompt,
            outcomes: [{ id: 'yes', condition: 'The user agrees', targetNodeId: 'mail' }],
          },
          { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'otp' } },
          { id: 'otp', type: 'two_factor_email', outcomes: { verified: 'done' } },
          { id: 'done', type: 'end' },
        ],
        // English is offered too: the browser's preference picks the language.
        langs: ['en', l.lang],
      });
      await page.context().grantPermissions(['camera', 'microphone'], { origin: idv.url });
      await page.goto(clientSecret.url);
      const check = async (screen: string) => {
        expect(await englishOnScreen(page), `${l.lang} ${screen}`).toEqual([]);
        await checkScreen(page, `${l.lang}-${screen}`);
      };

      await expect(page.getByRole('heading', { level: 1, name: l.heading })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', l.lang);
      await check('permissions');
      await page.getByRole('button', { name: l.continue }).click();

      await expect(page.getByTestId('avatar-words')).toHaveText(l.prompt.replace(/^Say:\s*/, ''));
      await page.getByRole('textbox').fill('');
      await page.getByRole('button', { name: l.send }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await check('conversation');
      await page.getByRole('textbox').fill(l.yes);
      await page.getByRole('button', { name: l.send }).click();

      await page.getByRole('textbox', { name: l.email }).fill('oops');
      await page.getByRole('button', { name: l.continue }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await check('enter-email');
      await page.getByRole('textbox', { name: l.email }).fill(email);
      await page.getByRole('button', { name: l.continue }).click();

      await expect(page.getByRole('button', { name: l.sendCode })).toBeVisible();
      await check('otp-send');
      await page.getByRole('button', { name: l.sendCode }).click();
      const code = /\b(\d{6})\b/.exec((await idv.waitForMail(email)).text)?.[1] ?? '';
      const input = page.getByRole('textbox', { name: l.code });
      await input.fill(code === '999999' ? '000000' : '999999');
      await page.getByRole('button', { name: l.verify }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await check('otp-wrong');
      await input.fill(code);
      await page.getByRole('button', { name: l.verify }).click();

      await expect(page.getByRole('heading', { level: 1, name: l.done })).toBeVisible();
      await check('end');
      expect((await idv.getSession(session.id)).report.lang).toBe(l.lang);

      // The refusal of a second open, in the browser's language.
      const other = await browser.newContext({ locale: l.locale });
      const again = await other.newPage();
      await again.goto(clientSecret.url);
      await expect(again.getByRole('heading', { level: 1, name: l.used })).toBeVisible();
      expect(await englishOnScreen(again), `${l.lang} used link`).toEqual([]);
      await other.close();
    });
  });
}

test('the English probes do find English (the check can fail)', async ({ page }) => {
  const { clientSecret } = await idv.createSession({
    flow: [
      { id: 'start', type: 'start', outcome: 'mail' },
      { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'end' } },
      { id: 'end', type: 'end' },
    ],
    langs: ['en'],
  });
  await page.goto(clientSecret.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Your email address' })).toBeVisible();
  const found = await englishOnScreen(page);
  expect(found).toContain('Your email address');
  expect(found).toContain('We will use it to send you a code');
});
