/** MRZ dates are YYMMDD; the century is inferred, as ICAO 9303 leaves it to the reader. */

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function valid(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= last;
}

/**
 * A YYMMDD birth date: the latest century that does not put it in the future of `today`.
 *
 * @example
 * birthDate('740812', Date.UTC(2026, 0, 1)); // { year: 1974, month: 8, day: 12 }
 * birthDate('100230', Date.UTC(2026, 0, 1)); // null (no 30 February)
 */
export function birthDate(yymmdd: string, today: number): CalendarDate | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  const now = new Date(today);
  let year = 2000 + yy;
  if (Date.UTC(year, month - 1, day) > today || year > now.getUTCFullYear()) year -= 100;
  return valid(year, month, day) ? { year, month, day } : null;
}

/**
 * A YYMMDD expiry date: within 50 years before or after `today` (documents last at most 10–15).
 *
 * @example
 * expiryDate('120415', Date.UTC(2026, 0, 1)); // { year: 2012, month: 4, day: 15 }
 */
export function expiryDate(yymmdd: string, today: number): CalendarDate | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  const nowYear = new Date(today).getUTCFullYear();
  let year = 2000 + yy;
  if (year > nowYear + 50) year -= 100;
  return valid(year, month, day) ? { year, month, day } : null;
}

/**
 * `YYYY-MM-DD`, the form `extractedData` dates take.
 *
 * @example
 * isoDate({ year: 1974, month: 8, day: 12 }); // '1974-08-12'
 */
export function isoDate(d: CalendarDate): string {
  const p = (n: number, w: number) => String(n).padStart(w, '0');
  return `${p(d.year, 4)}-${p(d.month, 2)}-${p(d.day, 2)}`;
}

/**
 * Whether a document with this expiry date is expired on `today` (it is valid through that day).
 *
 * @example
 * isExpired({ year: 2012, month: 4, day: 15 }, Date.UTC(2012, 3, 15, 23)); // false
 */
export function isExpired(expiry: CalendarDate, today: number): boolean {
  return Date.UTC(expiry.year, expiry.month - 1, expiry.day + 1) <= today;
}
