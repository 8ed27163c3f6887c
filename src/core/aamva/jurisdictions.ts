/**
 * The jurisdictions of the AAMVA card design standard: US states, the District of Columbia, US
 * territories and Canadian provinces and territories, by the two-letter code a licence's address
 * (`DAJ`) uses, and the issuer identification numbers (IIN) of AAMVA's members. A licence's
 * country follows from its jurisdiction when the barcode does not say it (`DCG`, from version 2).
 */

const US = `AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ
NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR VI`;
const CANADA = 'AB BC MB NB NL NS NT NU ON PE QC SK YT';

const COUNTRY: ReadonlyMap<string, 'USA' | 'CAN'> = new Map([
  ...US.split(/\s+/).map((c) => [c, 'USA'] as const),
  ...CANADA.split(/\s+/).map((c) => [c, 'CAN'] as const),
]);

/**
 * The country of a jurisdiction code, or null for a code that is no AAMVA jurisdiction.
 *
 * @example
 * countryOfJurisdiction('CA'); // 'USA'
 * countryOfJurisdiction('ON'); // 'CAN'
 */
export function countryOfJurisdiction(code: string): 'USA' | 'CAN' | null {
  return COUNTRY.get(code.trim().toUpperCase()) ?? null;
}

/**
 * Whether an issuer identification number lies in the ranges ISO/IEC 7812 gave AAMVA's
 * jurisdictions (636000–636062 and 604426–604434: every US state, DC, the territories, the
 * Canadian provinces and territories, and a few Mexican states).
 *
 * @example
 * isAamvaIin('636014'); // true (California)
 * isAamvaIin('123456'); // false
 */
export function isAamvaIin(iin: string): boolean {
  if (!/^\d{6}$/.test(iin)) return false;
  const n = Number(iin);
  return (n >= 636000 && n <= 636062) || (n >= 604426 && n <= 604434);
}
