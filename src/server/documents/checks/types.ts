/** The forgery and consistency checks of a document scan, as the node report lists them. */

export type CheckResult = 'passed' | 'failed' | 'not_performed';

/**
 * - `issuingState`: the issuer is a state ICAO knows (`UTO`, the specimen state, only in test
 *   mode), or for a licence an AAMVA jurisdiction;
 * - `nationality`: the same for the holder's nationality (zones only);
 * - `dates`: birth before issue before expiry, a plausible age and validity;
 * - `visualZone`: the printed fields say the name, birth date and number the zone or barcode says
 *   (on a two-sided card, the front's fields against the back's data);
 * - `face`: a face where the layout puts the portrait;
 * - `specimen`: neither SPECIMEN nor VOID printed on it;
 * - `original`: not a photocopy or a screen.
 */
export type CheckName =
  'issuingState' | 'nationality' | 'dates' | 'visualZone' | 'face' | 'specimen' | 'original';

export interface DocumentCheck {
  name: CheckName;
  result: CheckResult;
  /** What was found, when it explains the result (`UTO outside test mode`, `moire`…). */
  detail?: string;
}

/**
 * A check's entry.
 *
 * @example
 * check('dates', true); // { name: 'dates', result: 'passed' }
 */
export function check(name: CheckName, ok: boolean | null, detail?: string): DocumentCheck {
  const result: CheckResult = ok === null ? 'not_performed' : ok ? 'passed' : 'failed';
  return detail ? { name, result, detail } : { name, result };
}
