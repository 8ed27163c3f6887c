/**
 * The version of the consent text the page shows (`consent.*` in the locale files). Bump it when
 * the text's meaning changes: the report says which text a user accepted. (Its own module, so the
 * page takes it without the schemas.)
 */
export const CONSENT_TEXT_VERSION = '2026-11-25';
