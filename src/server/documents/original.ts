/**
 * Whether a photographed document is the document itself, or a photocopy of it or a screen
 * showing it: measures on the straightened page (the colour copy at 5 px/mm, the grey page at
 * 10 px/mm) and the thresholds they are judged by.
 *
 * - **Colour**: identity documents are printed in colour (tinted security backgrounds, a colour
 *   portrait); a photocopy is grey. Measured: the spread of each pixel's chroma (max − min of R,
 *   G, B), its 97th percentile less its 10th, so that a grey copy under tinted light (every pixel
 *   tinted alike) stays near zero.
 * - **Contrast**: printed ink is near black on a near-white page; a copier's toner is grey on grey
 *   and a screen's black is lit. Measured: the 1st percentile of the page's brightness over the
 *   local background (light fall-off divided out).
 * - **Moiré**: a screen is a grid of red, green and blue stripes that the camera samples into
 *   colour bands and fringes. Measured: the mean size of the chroma's fine detail (its difference
 *   from a 5 × 5 mean) on the page's light parts (text edges excluded).
 */
import type { Rgb } from './page';
import { boxMean, type Gray } from './raster';

export interface OriginalMeasures {
  /** Spread of chroma: its 97th percentile less its 10th (0–255); a tinted grey copy stays low. */
  colour: number;
  /** 1st percentile of brightness over local background (0–1): lower is blacker ink. */
  inkLevel: number;
  /** Mean chroma detail on light parts (0–255). */
  moire: number;
}

export interface OriginalVerdict {
  ok: boolean;
  /** What gave it away: `no_colour`, `flat_contrast`, `moire`. */
  flags: ('no_colour' | 'flat_contrast' | 'moire')[];
}

/**
 * The thresholds, set from the synthetic set (docs/documents.md, "Forgeries"): genuine photos at
 * every level above/below them with a margin, photocopies and screens across them.
 */
export const ORIGINAL_LIMITS = { minColour: 5, maxInkLevel: 0.45, maxMoire: 20 } as const;

/** The `p`th percentile of values sorted in place. */
function percentile(sorted: Float32Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
}

/** The `p`th percentile of whole numbers 0–255 counted in `hist` (`n` of them). */
function histPercentile(hist: Uint32Array, n: number, p: number): number {
  const k = Math.min(n - 1, Math.floor(n * p));
  let seen = 0;
  for (let v = 0; v < hist.length; v++) {
    seen += hist[v]!;
    if (seen > k) return v;
  }
  return 0;
}

/**
 * The measures of a page (its outer 3% left out: the outline's edge is neither page nor table).
 *
 * @example
 * const m = originalMeasures(colour, gray);
 */
export function originalMeasures(colour: Rgb, gray: Gray): OriginalMeasures {
  const { width: w, height: h, rgb } = colour;
  const mx = Math.round(w * 0.03);
  const my = Math.round(h * 0.03);
  // Chroma is a whole number 0–255: a histogram gives its percentiles without sorting.
  const chroma = new Uint32Array(256);
  let chromaN = 0;
  const cr = new Float32Array(w * h);
  const cb = new Float32Array(w * h);
  const luma = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    cr[i] = r - g;
    cb[i] = b - g;
    luma[i] = 0.3 * r + 0.59 * g + 0.11 * b;
  }
  for (let y = my; y < h - my; y++) {
    for (let x = mx; x < w - mx; x++) {
      const i = (y * w + x) * 3;
      chroma[
        Math.max(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!) - Math.min(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)
      ]!++;
      chromaN++;
    }
  }
  // Fine chroma detail where the page is light (no ink edges).
  const mean = (plane: Float32Array) => {
    const shifted = Uint8Array.from(plane, (v) => Math.max(0, Math.min(255, v + 128)));
    return boxMean({ width: w, height: h, data: shifted }, 2);
  };
  const mr = mean(cr);
  const mb = mean(cb);
  const lumaBg = boxMean({ width: w, height: h, data: Uint8Array.from(luma, Math.round) }, 2);
  let detail = 0;
  let n = 0;
  for (let y = my; y < h - my; y++) {
    for (let x = mx; x < w - mx; x++) {
      const i = y * w + x;
      if (lumaBg[i]! < 110 || luma[i]! < lumaBg[i]! - 25) continue;
      detail += Math.abs(cr[i]! + 128 - mr[i]!) + Math.abs(cb[i]! + 128 - mb[i]!);
      n++;
    }
  }
  // Ink over background on the grey page (10 px/mm: strokes are a few pixels wide).
  const bg = boxMean(gray, Math.round(gray.height / 8));
  const gx = Math.round(gray.width * 0.03);
  const gy = Math.round(gray.height * 0.03);
  const ratios = new Float32Array(
    Math.ceil((gray.height - 2 * gy) / 2) * Math.ceil((gray.width - 2 * gx) / 2),
  );
  let r = 0;
  for (let y = gy; y < gray.height - gy; y += 2) {
    for (let x = gx; x < gray.width - gx; x += 2) {
      const i = y * gray.width + x;
      ratios[r++] = gray.data[i]! / Math.max(1, bg[i]!);
    }
  }
  ratios.subarray(0, r).sort();
  return {
    colour: chromaN
      ? histPercentile(chroma, chromaN, 0.97) - histPercentile(chroma, chromaN, 0.1)
      : 0,
    inkLevel: percentile(ratios.subarray(0, r), 0.01),
    moire: n > 0 ? detail / n : 0,
  };
}

/**
 * The verdict on measures: each one past its limit is a flag.
 *
 * @example
 * judgeOriginal({ colour: 3, inkLevel: 0.5, moire: 2 }); // { ok: false, flags: ['no_colour', 'flat_contrast'] }
 */
export function judgeOriginal(m: OriginalMeasures, limits = ORIGINAL_LIMITS): OriginalVerdict {
  const flags: OriginalVerdict['flags'] = [];
  if (m.colour < limits.minColour) flags.push('no_colour');
  if (m.inkLevel > limits.maxInkLevel) flags.push('flat_contrast');
  if (m.moire > limits.maxMoire) flags.push('moire');
  return { ok: flags.length === 0, flags };
}
