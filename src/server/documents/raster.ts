/**
 * Small image operations on grey and RGB rasters, enough to straighten a document and prepare its
 * machine-readable zone for OCR without a native image library.
 */
import { apply, type Homography } from './homography';

export interface Gray {
  width: number;
  height: number;
  /** One byte a pixel, row by row. */
  data: Uint8Array;
}

/**
 * Luma of packed RGB.
 *
 * @example
 * toGray({ width: 1, height: 1, rgb: new Uint8Array([255, 255, 255]) }).data[0]; // 255
 */
export function toGray(img: { width: number; height: number; rgb: Uint8Array }): Gray {
  const n = img.width * img.height;
  const data = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    data[i] = (img.rgb[j]! * 77 + img.rgb[j + 1]! * 150 + img.rgb[j + 2]! * 29) >> 8;
  }
  return { width: img.width, height: img.height, data };
}

/**
 * Samples `src` through `h` (output pixel → source pixel) into a `width`×`height` raster, with
 * bilinear interpolation; outside the source is `fill`.
 *
 * @example
 * const flat = warpGray(photo, toPhoto, 1250, 880);
 */
export function warpGray(
  src: Gray,
  h: Homography,
  width: number,
  height: number,
  fill = 255,
): Gray {
  const data = new Uint8Array(width * height);
  const { width: sw, height: sh, data: s } = src;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = apply(h, { x: x + 0.5, y: y + 0.5 });
      const fx = p.x - 0.5;
      const fy = p.y - 0.5;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= sw || y0 + 1 >= sh) {
        data[y * width + x] = fill;
        continue;
      }
      const ax = fx - x0;
      const ay = fy - y0;
      const i = y0 * sw + x0;
      const top = s[i]! * (1 - ax) + s[i + 1]! * ax;
      const bottom = s[i + sw]! * (1 - ax) + s[i + sw + 1]! * ax;
      data[y * width + x] = Math.round(top * (1 - ay) + bottom * ay);
    }
  }
  return { width, height, data };
}

/**
 * A rectangle cut out of a raster (clamped to it).
 *
 * @example
 * crop(g, 0, g.height - 200, g.width, 200);
 */
export function crop(g: Gray, x: number, y: number, w: number, h: number): Gray {
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(g.width, Math.round(x + w));
  const y1 = Math.min(g.height, Math.round(y + h));
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const data = new Uint8Array(width * height);
  for (let r = 0; r < height; r++) {
    data.set(g.data.subarray((y0 + r) * g.width + x0, (y0 + r) * g.width + x1), r * width);
  }
  return { width, height, data };
}

/**
 * Box means over a (2r+1)² window, from an integral image: the local background for adaptive
 * thresholds and flattening of uneven light.
 *
 * @example
 * const bg = boxMean(g, 15);
 */
export function boxMean(g: Gray, r: number): Float32Array {
  const { width: w, height: h, data } = g;
  const ii = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += data[y * w + x]!;
      ii[(y + 1) * (w + 1) + x + 1] = ii[y * (w + 1) + x + 1]! + row;
    }
  }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const ya = Math.max(0, y - r);
    const yb = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const xa = Math.max(0, x - r);
      const xb = Math.min(w, x + r + 1);
      const sum =
        ii[yb * (w + 1) + xb]! -
        ii[ya * (w + 1) + xb]! -
        ii[yb * (w + 1) + xa]! +
        ii[ya * (w + 1) + xa]!;
      out[y * w + x] = sum / ((yb - ya) * (xb - xa));
    }
  }
  return out;
}

/**
 * A raster scaled by `f` (bilinear).
 *
 * @example
 * scaled({ width: 100, height: 40, data }, 0.75).width; // 75
 */
export function scaled(g: Gray, f: number): Gray {
  const w = Math.round(g.width * f);
  const h = Math.round(g.height * f);
  return warpGray(g, [1 / f, 0, 0, 0, 1 / f, 0, 0, 0, 1], w, h);
}
