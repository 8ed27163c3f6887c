import type { ErrorDetail } from '../../core/api';

const DATA_URL_PREFIX = /^data:image\/jpeg;base64,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of an uploaded document photo: base64 (or a `data:image/jpeg;base64,` URL) of a JPEG
 * of at most `max` bytes.
 *
 * @example
 * frameBytesWithin('/9j/4AAQ…', 3 << 20); // { ok: true, bytes: <Buffer ff d8 ff …> }
 */
export function frameBytesWithin(
  image: string,
  max: number,
): { ok: true; bytes: Buffer } | { ok: false; problems: ErrorDetail[] } {
  const text = image.replace(DATA_URL_PREFIX, '');
  const bad = (message: string) => ({ ok: false as const, problems: [{ path: 'image', message }] });
  if (text.length % 4 !== 0 || !BASE64.test(text)) return bad('must be base64');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > max) return bad(`the image is larger than ${Math.round(max / 1024)} KB`);
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) {
    return bad('not a JPEG image (document photos are sent as JPEG)');
  }
  return { ok: true, bytes };
}
