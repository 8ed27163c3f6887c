/**
 * Whether a document's dates can be: born before it was issued, issued before it expires, issued
 * and born in the past, a holder of at most 120 years, a validity of at most 15 years (passports
 * and cards are issued for 10 at most, licences for 8: a zone has no issue date, so its expiry
 * may be at most 15 years ahead), and a licence's holder at least 14 when it was issued (the
 * youngest learner's permit in the US).
 */
import { check, type DocumentCheck } from './types';

const DAY = 86_400_000;
const YEAR = 365.25 * DAY;

export interface DocumentDates {
  /** `YYYY-MM-DD`, or `''` when the document has none. */
  dateOfBirth: string;
  expiryDate: string;
  issueDate: string;
}

const time = (iso: string) => (iso ? Date.parse(`${iso}T00:00:00Z`) : NaN);

/**
 * The dates check; its detail names the first rule that fails.
 *
 * @example
 * datesCheck({ dateOfBirth: '1990-01-01', issueDate: '1995-01-01', expiryDate: '2030-01-01' }, Date.UTC(2026, 0, 1), 'dl');
 * // failed: 'issued at age 5'
 */
export function datesCheck(
  d: DocumentDates,
  today: number,
  kind: 'zone' | 'licence',
): DocumentCheck {
  const birth = time(d.dateOfBirth);
  const expiry = time(d.expiryDate);
  const issue = time(d.issueDate);
  if (Number.isNaN(birth) || Number.isNaN(expiry))
    return check('dates', false, 'a date is missing');
  const years = (ms: number) => Math.floor(ms / YEAR);
  if (birth > today) return check('dates', false, 'born in the future');
  if (years(today - birth) > 120)
    return check('dates', false, `holder aged ${years(today - birth)}`);
  if (expiry <= birth) return check('dates', false, 'expires before the holder was born');
  if (!Number.isNaN(issue)) {
    if (issue < birth) return check('dates', false, 'issued before the holder was born');
    if (issue > today) return check('dates', false, 'issued in the future');
    if (issue >= expiry) return check('dates', false, 'issued after it expires');
    if (expiry - issue > 15 * YEAR)
      return check('dates', false, `valid ${years(expiry - issue)} years`);
    if (kind === 'licence' && issue - birth < 14 * YEAR)
      return check('dates', false, `issued at age ${years(issue - birth)}`);
  } else if (expiry - today > 15 * YEAR) {
    return check('dates', false, `expires in ${years(expiry - today)} years`);
  }
  return check('dates', true);
}
