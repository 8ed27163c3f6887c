/**
 * Each language named in itself, so that a user who cannot read the current language still finds
 * their own in the list.
 */
export const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  ru: 'Русский',
  es: 'Español',
  id: 'Bahasa Indonesia',
  no: 'Norsk',
  pt: 'Português',
  it: 'Italiano',
};
