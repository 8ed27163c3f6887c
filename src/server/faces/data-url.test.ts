import { describe, expect, it } from 'vitest';
import { parseImageDataUrl } from './data-url';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

describe('parseImageDataUrl', () => {
  it('decodes a base64 JPEG or PNG data URL', () => {
    const r = parseImageDataUrl(`data:image/png;base64,${png.toString('base64')}`, 100);
    expect(r.ok && r.bytes.equals(png)).toBe(true);
    const j = parseImageDataUrl(`data:image/jpg;base64,${png.toString('base64')}`, 100);
    expect(j.ok && j.contentType).toBe('image/jpeg');
  });

  it('refuses other types, plain text, bad base64 and empty payloads', () => {
    expect(parseImageDataUrl('data:text/html;base64,PGI+', 100)).toMatchObject({ ok: false });
    expect(parseImageDataUrl('data:image/png,rawtext', 100)).toMatchObject({ ok: false });
    expect(parseImageDataUrl('data:image/png;base64,***', 100)).toMatchObject({ ok: false });
    expect(parseImageDataUrl('data:image/png;base64,', 100)).toMatchObject({ ok: false });
  });

  it('refuses an image over the size limit', () => {
    const big = Buffer.alloc(200).toString('base64');
    const r = parseImageDataUrl(`data:image/jpeg;base64,${big}`, 100);
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.reason).toMatch(/larger than 100 bytes/);
  });
});
