const DOT = '•';

/**
 * Masks an email address for display: the first character of the local part, then dots.
 *
 * @example
 * maskEmail('jane.doe@example.com'); // 'j•••@example.com'
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return DOT.repeat(3);
  return `${email[0]}${DOT.repeat(3)}${email.slice(at)}`;
}

/**
 * Masks a phone number for display: the leading `+` and country part kept short, the last two
 * digits shown.
 *
 * @example
 * maskPhone('+44 7700 900123'); // '+4•••••23'
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (digits.length < 4) return DOT.repeat(3);
  const plus = phone.trim().startsWith('+') ? '+' : '';
  return `${plus}${digits[0]}${DOT.repeat(5)}${digits.slice(-2)}`;
}

/**
 * A loose check of an email address: enough to catch typing slips, the server decides the rest.
 *
 * @example
 * looksLikeEmail('a@b.co'); // true
 * looksLikeEmail('a@b'); // false
 */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value.trim()) && value.trim().length <= 254;
}

/**
 * A phone number in international form: `+`, then 8 to 15 digits (E.164), spaces and dashes
 * allowed while typing. Returns the compact form, or null.
 *
 * @example
 * normalizePhone('+44 7700-900123'); // '+447700900123'
 * normalizePhone('07700 900123'); // null
 */
export function normalizePhone(value: string): string | null {
  const compact = value.replace(/[\s\-().]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : null;
}
