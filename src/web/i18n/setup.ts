import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocaleTree } from './checkLocale';
import type { SupportedLang } from './pickLanguage';

// One chunk per language: the page downloads only the words it shows.
const loaders = import.meta.glob<LocaleTree>('../../../locales/*.json', { import: 'default' });

let ready: Promise<unknown> | null = null;
// The page may ask for the browser's language at boot and for the session's a moment later; the
// later request wins even if its words arrive first.
let latest = 0;

function init(): Promise<unknown> {
  ready ??= i18next.use(initReactI18next).init({
    resources: {},
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return ready;
}

/**
 * Loads a language's words (once) and makes it the page's language, `<html lang>` included.
 *
 * @example
 * await switchLanguage('fr'); // document.documentElement.lang === 'fr'
 */
export async function switchLanguage(lang: SupportedLang): Promise<void> {
  const ticket = ++latest;
  await init();
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    const load = loaders[`../../../locales/${lang}.json`];
    if (!load) throw new Error(`No words for language ${lang}`);
    i18next.addResourceBundle(lang, 'translation', await load(), true, true);
  }
  if (ticket !== latest) return;
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
  document.title = i18next.t('app.title');
}

export { i18next };
