import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blobToBase64, bytesToBase64 } from './base64';

describe('bytesToBase64', () => {
  it('encodes the RFC 4648 test vectors', () => {
    const enc = (s: string) => bytesToBase64(new TextEncoder().encode(s));
    expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map(enc)).toEqual([
      '',
      'Zg==',
      'Zm8=',
      'Zm9v',
      'Zm9vYg==',
      'Zm9vYmE=',
      'Zm9vYmFy',
    ]);
  });

  it('encodes every byte value as Node does', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(bytesToBase64(all)).toBe(Buffer.from(all).toString('base64'));
  });

  it('agrees with Node on any bytes, across the chunk boundaries', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }),
      { numRuns: 40 },
    );
  });

  it('encodes a 500 KB frame without overflowing the stack, and decodes back', () => {
    const big = new Uint8Array(500 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
    const text = bytesToBase64(big);
    expect(text.length).toBe(4 * Math.ceil(big.length / 3));
    expect(Buffer.from(text, 'base64').equals(Buffer.from(big))).toBe(true);
  });
});

describe('blobToBase64', () => {
  it('encodes a blob (a JPEG start) with no data: prefix', async () => {
    const blob = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });
    expect(await blobToBase64(blob)).toBe('/9j/4A==');
  });
});
