/** The nine languages the service speaks (the spec's language list). */
export const SUPPORTED_LANGS = ['en', 'fr', 'de', 'ru', 'es', 'id', 'no', 'pt', 'it'] as const;
export type SupportedLang = (typeof SUPPORTED_LANGS)[number];

// Browsers report Norwegian as Bokmål or Nynorsk and Indonesian sometimes under its retired code;
// the spec knows each under one ISO 639-1 code.
const ALIASES: Record<string, string> = { nb: 'no', nn: 'no', in: 'id' };

/**
 * The language code a browser tag stands for: its primary subtag, lower-cased, with the aliases
 * browsers still send folded into the spec's codes.
 *
 * @example
 * baseLanguage('nb-NO'); // 'no'
 * baseLanguage('pt-BR'); // 'pt'
 */
export function baseLanguage(tag: string): string {
  const primary = (tag.trim().toLowerCase().split(/[-_]/)[0] ?? '').trim();
  return ALIASES[primary] ?? primary;
}

/**
 * Chooses the session's language: the first of the browser's preferences that the session offers,
 * else the session's default (and English when even that is not offered).
 *
 * @example
 * pickLanguage(['de-CH', 'fr'], ['en', 'fr'], 'en'); // 'fr'
 * pickLanguage(['ja'], ['en', 'fr'], 'fr'); // 'fr'
 */
export function pickLanguage(
  browserLangs: readonly string[],
  offered: readonly string[],
  defaultLang: string,
): string {
  const available = new Set(offered.map(baseLanguage));
  for (const tag of browserLangs) {
    const base = baseLanguage(tag);
    if (base && available.has(base)) return base;
  }
  if (available.size === 0 || available.has(baseLanguage(defaultLang))) {
    return baseLanguage(defaultLang) || 'en';
  }
  return offered.map(baseLanguage)[0] ?? 'en';
}

/**
 * Whether a code is one of the nine languages the page has words for.
 *
 * @example
 * isSupportedLang('ru'); // true
 * isSupportedLang('ja'); // false
 */
export function isSupportedLang(code: string): code is SupportedLang {
  return (SUPPORTED_LANGS as readonly string[]).includes(code);
}

/**
 * The language to show before a session is known (error pages for a bad link): the browser's
 * preference among the nine, else English.
 *
 * @example
 * pageLanguageBeforeSession(['ru-RU', 'en']); // 'ru'
 */
export function pageLanguageBeforeSession(browserLangs: readonly string[]): SupportedLang {
  const found = pickLanguage(browserLangs, SUPPORTED_LANGS, 'en');
  return isSupportedLang(found) ? found : 'en';
}
