/**
 * ICAO 9303 check digits: each character's value (`0`–`9` as themselves, `A`–`Z` as 10–35, the
 * filler `<` as 0) weighted 7, 3, 1 in turn, summed, modulo 10.
 */

/** The value of one MRZ character, or null for a character MRZ does not use. */
export function charValue(c: string): number | null {
  if (c === '<') return 0;
  const code = c.charCodeAt(0);
  if (c.length !== 1) return null;
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  return null;
}

const WEIGHTS = [7, 3, 1] as const;

/**
 * The check digit of a field, or null when the field holds a character MRZ does not use.
 *
 * @example
 * checkDigit('L898902C3'); // 6 (ICAO 9303 part 4 specimen)
 * checkDigit('740812'); // 2
 */
export function checkDigit(field: string): number | null {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const v = charValue(field[i]!);
    if (v === null) return null;
    sum += v * WEIGHTS[i % 3]!;
  }
  return sum % 10;
}

/**
 * Whether `digit` is the check digit of `field`. A filler `<` stands for 0 only where the field is
 * all fillers (an empty optional field), as ICAO 9303 allows.
 *
 * @example
 * checkDigitHolds('L898902C3', '6'); // true
 * checkDigitHolds('<<<<<<<<<<<<<<', '<'); // true
 */
export function checkDigitHolds(field: string, digit: string): boolean {
  if (digit === '<') return /^<*$/.test(field);
  const want = checkDigit(field);
  return want !== null && String(want) === digit;
}
