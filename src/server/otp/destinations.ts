import type { SessionRecord } from '../store/types';

/**
 * The email the session knows: the last one entered in an enter_email node, else
 * `providedData.email`.
 *
 * @example
 * knownEmail(session); // 'jane@example.com' or null
 */
export function knownEmail(s: SessionRecord): string | null {
  for (let i = s.report.nodeReports.length - 1; i >= 0; i--) {
    const r = s.report.nodeReports[i];
    const email = r?.outcome === 'emailEntered' ? r.report?.['email'] : undefined;
    if (typeof email === 'string' && email) return email;
  }
  // Creation refuses a non-string email or phone (sessions/create.ts).
  const given = s.settings.providedData['email'];
  return typeof given === 'string' && given ? given : null;
}

/**
 * @example
 * knownPhone(session); // '+33612345678' or null
 */
export function knownPhone(s: SessionRecord): string | null {
  const given = s.settings.providedData['phone'];
  return typeof given === 'string' && given ? given : null;
}
