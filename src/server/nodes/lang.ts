import type { SessionRecord } from '../flow/gateway';

/**
 * The language the session speaks now: the page's choice, else the session's default.
 *
 * @example
 * sessionLang(session); // 'fr'
 */
export function sessionLang(s: SessionRecord): string {
  return s.report.lang ?? s.settings.defaultLang;
}
