/** Image types a reference may have: the analyzer reads JPEG and PNG. */
const IMAGE_TYPES = ['image/jpeg', 'image/jpg', 'image/png'] as const;

export type DataUrlResult =
  { ok: true; contentType: string; bytes: Buffer } | { ok: false; reason: string };

/**
 * Decodes a base64 `data:` URL holding a JPEG or PNG, at most `maxBytes` decoded.
 *
 * @example
 * parseImageDataUrl('data:image/png;base64,iVBORw0…', 5 * 1024 * 1024); // { ok: true, … }
 * parseImageDataUrl('data:text/plain,hi', 10); // { ok: false, reason: '…' }
 */
export function parseImageDataUrl(value: string, maxBytes: number): DataUrlResult {
  const m = /^data:([a-z0-9.+/-]+)((?:;[a-z0-9-]+=[^;,]*)*);base64,/i.exec(value);
  if (!m) return { ok: false, reason: 'the data URL is not a base64 image data URL' };
  const contentType = m[1]!.toLowerCase();
  if (!(IMAGE_TYPES as readonly string[]).includes(contentType)) {
    return { ok: false, reason: `a data URL of type ${contentType} is not a JPEG or PNG image` };
  }
  const payload = value.slice(m[0].length).replace(/\s+/g, '');
  // Checked before decoding: the decoded size is three quarters of the base64 length.
  if (Math.floor((payload.length * 3) / 4) > maxBytes + 2) {
    return { ok: false, reason: `the image is larger than ${maxBytes} bytes` };
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 === 1) {
    return { ok: false, reason: 'the data URL is not valid base64' };
  }
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length === 0) return { ok: false, reason: 'the data URL holds no bytes' };
  if (bytes.length > maxBytes) {
    return { ok: false, reason: `the image is larger than ${maxBytes} bytes` };
  }
  return { ok: true, contentType: contentType === 'image/jpg' ? 'image/jpeg' : contentType, bytes };
}
