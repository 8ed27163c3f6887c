/**
 * Screens and prints leave a regular pattern a face does not have: a screen's pixel grid and its
 * subpixel stripes, which the camera samples into moiré, its scan lines; a printer's halftone dots.
 * Each shows as a sharp peak in the power spectrum of the face, standing far above the spectrum of
 * skin, hair and edges at the same frequency.
 */
import type { Box } from '../../../core/liveness';
import type { Gray } from '../../documents/raster';
import { powerSpectrum } from './fft';

export interface SpectrumCue {
  /** Side of the square patch analysed (pixels, a power of two). */
  size: number;
  /**
   * The strongest peak at high frequency: its power (smoothed over 3×3 bins) over the median power
   * at the same frequency in every direction. A face gives a few; a regular pattern tens or more.
   */
  peakRatio: number;
  /** Where it is, in cycles per pixel (x, y). */
  peak: { fx: number; fy: number } | null;
}

export interface SpectrumOptions {
  /** Frequencies at and above this (cycles per pixel) are searched; below is the face itself. */
  minFrequency: number;
}

export const SPECTRUM_DEFAULTS: SpectrumOptions = { minFrequency: 0.15 };

const pow2Below = (v: number) => 2 ** Math.floor(Math.log2(Math.max(1, v)));

/**
 * The spectral peak of the patch at the face's centre (as wide as 80 % of the face, 32 or 64
 * pixels). The frequencies of an 8-pixel grid (JPEG's blocks: every multiple of 1/8 cycle per
 * pixel along either axis) are left out, as is everything below `minFrequency`.
 *
 * @example
 * spectralPeaks(gray, face.box).peakRatio; // under 30 on a face, hundreds on a screen
 */
export function spectralPeaks(
  g: Gray,
  box: Box,
  options: Partial<SpectrumOptions> = {},
): SpectrumCue {
  const o = { ...SPECTRUM_DEFAULTS, ...options };
  const n = Math.min(64, Math.max(32, pow2Below(box.width * 0.8)));
  if (g.width < n || g.height < n) return { size: n, peakRatio: 0, peak: null };
  const x0 = Math.round(Math.min(g.width - n, Math.max(0, box.x + box.width / 2 - n / 2)));
  const y0 = Math.round(Math.min(g.height - n, Math.max(0, box.y + box.height / 2 - n / 2)));
  const patch = new Float64Array(n * n);
  let mean = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) mean += g.data[(y0 + y) * g.width + x0 + x]!;
  }
  mean /= n * n;
  const hann = Float64Array.from(
    { length: n },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n),
  );
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      patch[y * n + x] = (g.data[(y0 + y) * g.width + x0 + x]! - mean) * hann[x]! * hann[y]!;
    }
  }
  const power = powerSpectrum(patch, n);
  const signed = (k: number) => (k < n / 2 ? k : k - n);
  // 3×3 smoothing (the spectrum wraps round): a true peak, spread over a few bins by the window,
  // stays; the scatter of a single bin's power does not.
  const smooth = new Float64Array(n * n);
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      let s = 0;
      for (let dv = -1; dv <= 1; dv++) {
        const row = ((v + dv + n) % n) * n;
        for (let du = -1; du <= 1; du++) s += power[row + ((u + du + n) % n)]!;
      }
      smooth[v * n + u] = s / 9;
    }
  }
  const block = n / 8;
  const onGrid = (k: number) => {
    const m = Math.abs(k) % block;
    return k !== 0 && Math.min(m, block - m) <= 1;
  };
  const rings: number[][] = Array.from({ length: n }, () => []);
  const ringOf = new Int32Array(n * n).fill(-1);
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      const fu = signed(u);
      const fv = signed(v);
      const r = Math.round(Math.hypot(fu, fv));
      if (r / n < o.minFrequency || r >= n / 2) continue;
      if (onGrid(fu) || onGrid(fv)) continue;
      ringOf[v * n + u] = r;
      rings[r]!.push(smooth[v * n + u]!);
    }
  }
  const medians = rings.map((vals) => {
    if (vals.length === 0) return 0;
    const s = [...vals].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)]!;
  });
  let best = 0;
  let peak: SpectrumCue['peak'] = null;
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      const r = ringOf[v * n + u]!;
      if (r < 0 || !(medians[r]! > 0)) continue;
      const ratio = smooth[v * n + u]! / medians[r]!;
      if (ratio > best) {
        best = ratio;
        peak = { fx: signed(u) / n, fy: signed(v) / n };
      }
    }
  }
  return { size: n, peakRatio: best, peak };
}
