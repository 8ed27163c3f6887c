/**
 * Signed media URLs: `{publicUrl}/media/{id}?expires={unix ms}&sig={hex}` where `sig` is the
 * HMAC-SHA256, keyed by the media signing secret, of `{id}.{expires}`. The URL is the whole
 * credential: anyone holding it may download the object until it expires, no one may make
 * another one or stretch its lifetime without the secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The result of checking a URL: `expired` only for a URL we really signed. */
export type MediaUrlCheck = 'ok' | 'expired' | 'invalid';

const EXPIRES = /^[0-9]{1,15}$/;
const SIG = /^[0-9a-f]{64}$/;

/**
 * The signature of a media id and expiry, in lowercase hex.
 *
 * @example
 * mediaSignature(secret, 'med_1', 1700000900000); // '3b1f…' (64 hex characters)
 */
export function mediaSignature(secret: Uint8Array | string, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`${id}.${expires}`).digest('hex');
}

/**
 * A signed download URL for a media id.
 *
 * @example
 * signMediaUrl({ secret, publicUrl: 'https://idv.example', id: 'med_1', expires: 1700000900000 });
 * // 'https://idv.example/media/med_1?expires=1700000900000&sig=3b1f…'
 */
export function signMediaUrl(input: {
  secret: Uint8Array | string;
  publicUrl: string;
  id: string;
  expires: number;
}): string {
  const { secret, publicUrl, id, expires } = input;
  const base = publicUrl.replace(/\/+$/, '');
  const sig = mediaSignature(secret, id, expires);
  return `${base}/media/${encodeURIComponent(id)}?expires=${expires}&sig=${sig}`;
}

/**
 * Checks the `expires` and `sig` of a URL for `id` at time `now`. The signature is checked
 * first (in constant time), so a forged URL is `invalid` whatever its expiry says.
 *
 * @example
 * checkMediaUrl(secret, 'med_1', '1700000900000', sig, 1700000000000); // 'ok'
 * checkMediaUrl(secret, 'med_2', '1700000900000', sig, 1700000000000); // 'invalid'
 * checkMediaUrl(secret, 'med_1', '1700000900000', sig, 1700000900000); // 'expired'
 */
export function checkMediaUrl(
  secret: Uint8Array | string,
  id: string,
  expires: string | undefined,
  sig: string | undefined,
  now: number,
): MediaUrlCheck {
  if (typeof expires !== 'string' || typeof sig !== 'string') return 'invalid';
  if (!EXPIRES.test(expires) || !SIG.test(sig)) return 'invalid';
  const at = Number(expires);
  const expected = Buffer.from(mediaSignature(secret, id, at), 'hex');
  const given = Buffer.from(sig, 'hex');
  // `String(at) === expires` refuses `0123` for `123`: the signed text is the canonical number.
  if (String(at) !== expires || !timingSafeEqual(expected, given)) return 'invalid';
  return now >= at ? 'expired' : 'ok';
}
