import { createHash, randomBytes } from 'node:crypto';

/**
 * A random id with a readable prefix, e.g. `sess_3f9c…` (96 random bits by default).
 *
 * @example
 * newId('sess'); // 'sess_5d41402abc4b2a76b9719d91'
 */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('hex')}`;
}

/**
 * A secret credential: prefix + 32 random bytes in base64url (256 bits).
 *
 * @example
 * newSecret('cs'); // 'cs_Jx0…' (46 characters)
 */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/**
 * SHA-256 in hex: how API keys and client tokens are kept, so a copy of the database opens nothing.
 *
 * @example
 * sha256Hex('abc').slice(0, 8); // 'ba7816bf'
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
