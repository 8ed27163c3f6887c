import { LIVENESS_LIMITS, type ErrorDetail } from '../../core/api';

const DATA_URL_PREFIX = /^data:image\/jpeg;base64,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of an uploaded frame: base64 (optionally as a `data:image/jpeg;base64,` URL) of a JPEG
 * of at most `LIVENESS_LIMITS.maxFrameBytes`. Only the magic bytes are checked here; the analyzer
 * decodes the image later and reports a frame it cannot read as unreadable.
 *
 * @example
 * frameBytes('/9j/4AAQ…'); // { ok: true, bytes: Uint8Array [0xff, 0xd8, 0xff, …] }
 * frameBytes('iVBORw0KGgo='); // { ok: false, problems: [{ path: 'image', message: 'not a JPEG …' }] }
 */
export function frameBytes(
  image: string,
): { ok: true; bytes: Buffer } | { ok: false; problems: ErrorDetail[] } {
  const text = image.replace(DATA_URL_PREFIX, '');
  const bad = (message: string) => ({ ok: false as const, problems: [{ path: 'image', message }] });
  if (text.length % 4 !== 0 || !BASE64.test(text)) return bad('must be base64');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > LIVENESS_LIMITS.maxFrameBytes) {
    return bad(`the image is larger than ${LIVENESS_LIMITS.maxFrameBytes / 1024} KB`);
  }
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) {
    return bad('not a JPEG image (frames are sent as JPEG)');
  }
  return { ok: true, bytes };
}
