import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../face-analysis/image';
import { MIN_SHARPNESS, sharpness } from './sharpness';

/** A grey checkerboard of `cell` px squares, optionally box-blurred along both axes. */
function checker(cell: number, blur = 0, w = 320, h = 240): RgbImage {
  const grey = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++)
      grey[y * w + x] = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? 150 : 100;
  }
  let src = grey;
  for (const horizontal of [true, false]) {
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let sum = 0;
        let n = 0;
        for (let k = -blur; k <= blur; k++) {
          const xx = horizontal ? x + k : x;
          const yy = horizontal ? y : y + k;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          sum += src[yy * w + xx]!;
          n++;
        }
        out[y * w + x] = sum / n;
      }
    }
    src = out;
  }
  const rgb = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) rgb.fill(Math.round(src[i]!), i * 3, i * 3 + 3);
  return { width: w, height: h, rgb };
}

describe('sharpness', () => {
  it('is high for fine edges and falls under the threshold once they are blurred away', () => {
    const sharp = sharpness(checker(8));
    const blurred = sharpness(checker(8, 6));
    expect(sharp).toBeGreaterThan(MIN_SHARPNESS * 10);
    expect(blurred).toBeLessThan(MIN_SHARPNESS);
    expect(sharpness(checker(8, 1))).toBeGreaterThan(blurred);
  });

  it('is 0 for a flat picture and for one too small to read', () => {
    const flat: RgbImage = { width: 64, height: 48, rgb: new Uint8Array(64 * 48 * 3).fill(90) };
    expect(sharpness(flat)).toBe(0);
    expect(sharpness({ width: 8, height: 8, rgb: new Uint8Array(8 * 8 * 3) })).toBe(0);
  });
});
