import { describe, expect, it } from 'vitest';
import { LIVENESS_LIMITS } from '../../core/api';
import { frameBytes } from './frame-image';
import { smallJpeg } from './test-support';

describe('frameBytes', () => {
  it('accepts base64 JPEG, also as a data URL', () => {
    const b64 = smallJpeg();
    const r = frameBytes(b64);
    expect(r.ok && [...r.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const d = frameBytes(`data:image/jpeg;base64,${b64}`);
    expect(d.ok && d.bytes.equals(Buffer.from(b64, 'base64'))).toBe(true);
  });

  it('refuses what is not base64, not a JPEG, or too large', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');
    const big = Buffer.alloc(LIVENESS_LIMITS.maxFrameBytes + 1);
    big.set([0xff, 0xd8, 0xff]);
    const messages = ['a b', 'abc', png, big.toString('base64'), ''].map((x) => {
      const r = frameBytes(x);
      return r.ok ? 'ok' : r.problems.map((p) => `${p.path}: ${p.message}`).join();
    });
    expect(messages).toEqual([
      'image: must be base64',
      'image: must be base64',
      'image: not a JPEG image (frames are sent as JPEG)',
      'image: the image is larger than 500 KB',
      'image: not a JPEG image (frames are sent as JPEG)',
    ]);
  });
});
