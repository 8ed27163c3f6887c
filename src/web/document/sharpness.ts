import type { Gray } from './gray';
import type { Rect } from './guide';

/**
 * How sharp a region is: the variance of the 4-neighbour Laplacian over it. Blur removes the
 * fine edges of text, so the variance falls fast when the camera is out of focus or moving. The
 * value depends on the copy's scale, so it is always measured on a copy of the same size.
 *
 * @example
 * laplacianVariance(gray); // 0 for a flat image, hundreds for sharp text
 */
export function laplacianVariance(g: Gray, region?: Rect): number {
  const x0 = Math.max(1, Math.floor(region?.x ?? 0));
  const y0 = Math.max(1, Math.floor(region?.y ?? 0));
  const x1 = Math.min(g.width - 1, Math.ceil((region?.x ?? 0) + (region?.width ?? g.width)));
  const y1 = Math.min(g.height - 1, Math.ceil((region?.y ?? 0) + (region?.height ?? g.height)));
  let n = 0;
  let sum = 0;
  let sq = 0;
  const d = g.data;
  const w = g.width;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * w + x;
      const lap = d[i - 1]! + d[i + 1]! + d[i - w]! + d[i + w]! - 4 * d[i]!;
      sum += lap;
      sq += lap * lap;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sq / n - mean * mean;
}

/**
 * Least Laplacian variance, on the guide's area copied 320 pixels wide, for a photo worth sending.
 * Measured on the synthetic passports (`npm run documents -- --e2e`): 3000–4800 sharp, 750 for the
 * "heavy" level (σ 1.8 px blur, noise), 210–280 after a 3×3 box blur of the copy, 55–80 after 5×5.
 */
export const SHARP_MIN = 150;
/** The width of the copy `laplacianVariance` is measured on. */
export const SHARPNESS_WIDTH = 320;
