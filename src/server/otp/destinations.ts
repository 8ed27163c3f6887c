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

/**
 * The address or number a code node sends to when the page names none, and whether the user may
 * change it at the code step: one the user typed (an enter_email node) may be corrected there; one
 * the integrator gave in `providedData` is what the node confirms, so it stays.
 *
 * @example
 * knownDestination(session, 'email'); // { address: 'jane@example.com', changeable: true }
 */
export function knownDestination(
  s: SessionRecord,
  channel: 'email' | 'sms',
): { address: string; changeable: boolean } | null {
  const address = channel === 'email' ? knownEmail(s) : knownPhone(s);
  if (address === null) return null;
  const provided = s.settings.providedData[channel === 'email' ? 'email' : 'phone'];
  return { address, changeable: address !== provided };
}
