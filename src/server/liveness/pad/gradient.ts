/** Image gradients (Sobel) of a grey raster, shared by the border and text checks. */
import type { Gray } from '../../documents/raster';

export interface Gradients {
  width: number;
  height: number;
  /** Horizontal and vertical derivative (Sobel, 4× the step of a sharp edge), 0 on the rim. */
  gx: Float32Array;
  gy: Float32Array;
}

/**
 * Sobel derivatives of a grey raster.
 *
 * @example
 * const { gx } = sobel(gray); // a dark-to-light step of 10 levels reads 40 across it
 */
export function sobel(g: Gray): Gradients {
  const { width: w, height: h, data } = g;
  const gx = new Float32Array(w * h);
  const gy = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const a = data[i - w - 1]!;
      const b = data[i - w]!;
      const c = data[i - w + 1]!;
      const d = data[i - 1]!;
      const f = data[i + 1]!;
      const p = data[i + w - 1]!;
      const q = data[i + w]!;
      const r = data[i + w + 1]!;
      gx[i] = c + 2 * f + r - a - 2 * d - p;
      gy[i] = p + 2 * q + r - a - 2 * b - c;
    }
  }
  return { width: w, height: h, gx, gy };
}

/**
 * The raster at half size (2×2 averages): the border and text checks look for structures many
 * pixels long, and do so four times faster there.
 *
 * @example
 * halve({ width: 4, height: 2, data: new Uint8Array(8).fill(9) }).width; // 2
 */
export function halve(g: Gray): Gray {
  const w = g.width >> 1;
  const h = g.height >> 1;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const r0 = 2 * y * g.width;
    const r1 = r0 + g.width;
    for (let x = 0; x < w; x++) {
      const i = 2 * x;
      data[y * w + x] =
        (g.data[r0 + i]! + g.data[r0 + i + 1]! + g.data[r1 + i]! + g.data[r1 + i + 1]! + 2) >> 2;
    }
  }
  return { width: w, height: h, data };
}
