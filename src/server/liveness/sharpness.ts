/**
 * How sharp a camera frame is, for the "the picture is blurred" reason of a failed attempt: the
 * variance of the Laplacian of the frame's centre, read at half size. A picture out of focus or
 * smeared by movement loses the fine edges the Laplacian responds to; halving first keeps the
 * camera's pixel noise from counting as detail.
 */
import type { RgbImage } from '../face-analysis/image';

/**
 * Below this a frame counts as blurred. Measured on the fixtures' frames re-encoded as JPEG
 * (docs/liveness.md, "Attempts"): sharp they read 350–1,100, blurred by a 5 px box 110–180, by a
 * 7 px box 45–80, by an 11 px box 17–28. Only a picture that blurred is called blurred.
 */
export const MIN_SHARPNESS = 40;

/**
 * The Laplacian's variance over the middle half of the frame (where the oval is), at half size.
 *
 * @example
 * sharpness(decodeImage(jpegBytes)); // e.g. 120 for a sharp face, 10 when out of focus
 */
export function sharpness(img: RgbImage): number {
  const w = Math.floor(img.width / 2);
  const h = Math.floor(img.height / 2);
  if (w < 8 || h < 8) return 0;
  // Luma at half size: the mean of each 2×2 block.
  const luma = new Float32Array(w * h);
  const row = img.width * 3;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = (2 * y + dy) * row + (2 * x + dx) * 3;
        sum += 0.299 * img.rgb[i]! + 0.587 * img.rgb[i + 1]! + 0.114 * img.rgb[i + 2]!;
      }
      luma[y * w + x] = sum / 4;
    }
  }
  const x0 = Math.max(1, Math.floor(w / 4));
  const x1 = Math.min(w - 1, Math.ceil((3 * w) / 4));
  const y0 = Math.max(1, Math.floor(h / 4));
  const y1 = Math.min(h - 1, Math.ceil((3 * h) / 4));
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * w + x;
      const lap = luma[i - 1]! + luma[i + 1]! + luma[i - w]! + luma[i + w]! - 4 * luma[i]!;
      // Welford: one pass, no overflow on large frames.
      n++;
      const d = lap - mean;
      mean += d / n;
      m2 += d * (lap - mean);
    }
  }
  return n > 1 ? m2 / (n - 1) : 0;
}
