/** Synthetic grey rasters for the presentation-attack checks' tests. */
import type { Gray } from '../../documents/raster';

/**
 * A grey raster from a function of the pixel position (values clamped to 0–255).
 *
 * @example
 * const g = raster(64, 64, (x) => (x < 32 ? 0 : 255)); // a vertical step
 */
export function raster(w: number, h: number, f: (x: number, y: number) => number): Gray {
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) data[y * w + x] = Math.max(0, Math.min(255, Math.round(f(x, y))));
  }
  return { width: w, height: h, data };
}

/** A smooth face-like blob (brighter oval, darker eyes and mouth) centred on (cx, cy), size s. */
export function faceLike(x: number, y: number, cx: number, cy: number, s: number): number {
  const oval = Math.exp(-(((x - cx) / (0.45 * s)) ** 2 + ((y - cy) / (0.6 * s)) ** 2));
  const eye = (ex: number) =>
    Math.exp(-(((x - ex) / (0.08 * s)) ** 2 + ((y - (cy - 0.1 * s)) / (0.05 * s)) ** 2));
  const mouth = Math.exp(
    -(((x - cx) / (0.15 * s)) ** 2 + ((y - (cy + 0.25 * s)) / (0.04 * s)) ** 2),
  );
  return 90 + 100 * oval - 60 * (eye(cx - 0.2 * s) + eye(cx + 0.2 * s)) - 40 * mouth;
}
