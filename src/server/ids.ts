import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

// Random bytes drawn 4 KB at a time: one system call for many ids instead of one each.
let pool = Buffer.alloc(0);
let poolAt = 0;
function random(n: number): Buffer {
  if (poolAt + n > pool.length) {
    pool = randomBytes(Math.max(4096, n));
    poolAt = 0;
  }
  const out = pool.subarray(poolAt, poolAt + n);
  poolAt += n;
  return out;
}

/**
 * A random id with a readable prefix, e.g. `sess_3f9c…` (96 random bits by default).
 *
 * @example
 * newId('sess'); // 'sess_5d41402abc4b2a76b9719d91'
 */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${random(bytes).toString('hex')}`;
}

let lastMs = 0;
let seq = 0;

/**
 * A time-ordered id: 12 hex characters of the creation millisecond, then random ones (like
 * UUIDv7). Rows keyed by it are appended at the end of their index instead of scattered through
 * it, which keeps each commit's writes small.
 *
 * @example
 * orderedId('sess'); // 'sess_019a8f0c2b1e7d41c9a0f3b2'
 */
export function orderedId(prefix: string, randomBytesCount = 6): string {
  const ms = Date.now();
  // Within one millisecond a counter keeps them in creation order.
  seq = ms === lastMs ? (seq + 1) & 0xffff : 0;
  lastMs = ms;
  return `${prefix}_${timeHex(ms)}${seq.toString(16).padStart(4, '0')}${random(randomBytesCount).toString('hex')}`;
}

let hexMs = -1;
let hexText = '';
/** 12 hex characters of a millisecond; ids made in the same one share it. */
function timeHex(ms: number): string {
  if (ms !== hexMs) {
    hexMs = ms;
    hexText = ms.toString(16).padStart(12, '0').slice(-12);
  }
  return hexText;
}

/**
 * A secret credential: prefix + 32 random bytes in base64url (256 bits).
 *
 * @example
 * newSecret('cs'); // 'cs_Jx0…' (46 characters)
 */
export function newSecret(prefix: string): string {
  return `${prefix}_${random(32).toString('base64url')}`;
}

/** Between a client secret's random part and the session id it names; never in either. */
const SECRET_ID_MARK = '.';

/**
 * A session's client secret: `cs_`, 32 random bytes in base64url (256 bits, as any secret), then
 * `.` and the session's id. The id lets the store find the session by its primary key, so the
 * secret needs no index of its own, which every create would otherwise write (about a ninth of a
 * create's pages). The id is no credential: only the random part is.
 *
 * @example
 * clientSecret('sess_019a8f0c2b1e'); // 'cs_Jx0….sess_019a8f0c2b1e' (76 characters for a real id)
 */
export function clientSecret(sessionId: string): string {
  return `cs_${random(32).toString('base64url')}${SECRET_ID_MARK}${sessionId}`;
}

/**
 * The session a client secret names, or null for a secret that names none (one made before
 * secrets carried their session, or a made-up one). It says nothing of whether the secret is valid.
 *
 * @example
 * sessionOfSecret('cs_Jx0….sess_019a8f0c2b1e'); // 'sess_019a8f0c2b1e'
 * sessionOfSecret('cs_019a8f0c2b1eJx0…'); // null
 */
export function sessionOfSecret(secret: string): string | null {
  if (!secret.startsWith('cs_')) return null;
  const at = secret.indexOf(SECRET_ID_MARK);
  return at > 3 && at < secret.length - 1 ? secret.slice(at + 1) : null;
}

/**
 * SHA-256 in hex: how API keys and client tokens are kept, so a copy of the database opens nothing.
 *
 * @example
 * sha256Hex('abc').slice(0, 8); // 'ba7816bf'
 */
export function sha256Hex(text: string): string {
  // The one-shot form: every API request hashes its key, and a Hash object costs twice as much.
  return hash('sha256', text, 'hex');
}

/**
 * Whether two secrets are the same, in a time that does not tell how much of them matched.
 *
 * @example
 * sameSecret('cs_a.sess_1', 'cs_a.sess_1'); // true
 */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
