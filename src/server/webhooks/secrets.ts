/**
 * Signing secrets of an endpoint and their rotation. The service must sign with them, so unlike API
 * keys they are stored as they are (an HMAC key cannot be kept only as a hash).
 */
import { randomBytes } from 'node:crypto';

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface SigningSecret {
  secret: string;
  createdAt: number;
  /** null while it is the current secret; set when a rotation retires it. */
  expiresAt: number | null;
}

/**
 * A new signing secret: `whsec_` and 32 random bytes in base64url. The HMAC key is the whole
 * string, prefix included, as UTF-8.
 *
 * @example
 * newSigningSecret(); // 'whsec_3q2-7w…'
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The secrets after a rotation at `now`: the new one first, the current ones retired at
 * `now + overlap` (earlier expiries kept), and those already expired dropped.
 *
 * @example
 * rotateSecrets([{ secret: 'a', createdAt: 0, expiresAt: null }], 'b', 1000);
 * // [{ secret: 'b', createdAt: 1000, expiresAt: null }, { secret: 'a', createdAt: 0, expiresAt: 86401000 }]
 */
export function rotateSecrets(
  current: readonly SigningSecret[],
  fresh: string,
  now: number,
  overlapMs: number = ROTATION_OVERLAP_MS,
): SigningSecret[] {
  const retired = current
    .filter((s) => s.expiresAt === null || s.expiresAt > now)
    .map((s) => ({ ...s, expiresAt: Math.min(s.expiresAt ?? Infinity, now + overlapMs) }));
  return [{ secret: fresh, createdAt: now, expiresAt: null }, ...retired];
}

/**
 * The secrets that sign at `now`, newest first: one normally, two (or more) during a rotation.
 *
 * @example
 * signingSecretsAt(secrets, Date.now()); // ['whsec_new', 'whsec_old']
 */
export function signingSecretsAt(secrets: readonly SigningSecret[], now: number): string[] {
  return secrets
    .filter((s) => s.expiresAt === null || s.expiresAt > now)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((s) => s.secret);
}
