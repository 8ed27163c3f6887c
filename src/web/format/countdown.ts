/**
 * Whole seconds from `now` until `until` (both Unix milliseconds), never below zero.
 *
 * @example
 * secondsUntil(10_500, 1_000); // 10
 * secondsUntil(1_000, 5_000); // 0
 */
export function secondsUntil(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * Only the digits of a typed or pasted code, at most `length` of them (codes pasted from an email
 * often carry spaces or dashes).
 *
 * @example
 * cleanCode(' 123-456 ', 6); // '123456'
 */
export function cleanCode(value: string, length: number): string {
  return value.replace(/\D/g, '').slice(0, length);
}
