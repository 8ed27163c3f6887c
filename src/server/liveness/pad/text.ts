/**
 * Printed text beside a face (a document's fields, its machine-readable zone) shows as rows of
 * short vertical strokes: lines where many pixels have a strong horizontal gradient, separated by
 * quiet gaps, one under another. Skin, hair, clothes and a room seldom make such stacked bands.
 */
import type { Box } from '../../../core/liveness';
import type { Gradients } from './gradient';

export interface TextCue {
  /** The most text lines found stacked in one area beside or under the face. */
  lines: number;
  /** Where: right of the face, left of it, or under it. */
  where: 'right' | 'left' | 'below' | null;
}

export interface TextOptions {
  /** Horizontal gradient (Sobel units) of a stroke's edge. */
  minStroke: number;
  /** Share of a row's pixels on stroke edges for the row to be text. */
  rowDensity: number;
  /** Share under which a row is a gap between lines. */
  gapDensity: number;
}

export const TEXT_DEFAULTS: TextOptions = { minStroke: 60, rowDensity: 0.14, gapDensity: 0.05 };

/**
 * Counts the stacked text lines right of, left of and under the face (each area up to three face
 * sizes away): a line is a run of at least 2 rows dense with vertical strokes, closed by gap rows.
 *
 * @example
 * textBeside(sobel(gray), face.box).lines; // 2 or more beside a passport's photo
 */
export function textBeside(grad: Gradients, box: Box, options: Partial<TextOptions> = {}): TextCue {
  const o = { ...TEXT_DEFAULTS, ...options };
  const { x, y, width: fw, height: fh } = box;
  const areas: { where: TextCue['where']; x0: number; x1: number; y0: number; y1: number }[] = [
    { where: 'right', x0: x + 1.15 * fw, x1: x + 3.5 * fw, y0: y - 0.5 * fh, y1: y + 1.8 * fh },
    { where: 'left', x0: x - 2.5 * fw, x1: x - 0.15 * fw, y0: y - 0.5 * fh, y1: y + 1.8 * fh },
    { where: 'below', x0: x - 0.5 * fw, x1: x + 3 * fw, y0: y + 1.3 * fh, y1: y + 3.5 * fh },
  ];
  let best: TextCue = { lines: 0, where: null };
  for (const a of areas) {
    const n = countLines(grad, a, o);
    if (n > best.lines) best = { lines: n, where: a.where };
  }
  return best;
}

function countLines(
  grad: Gradients,
  a: { x0: number; x1: number; y0: number; y1: number },
  o: TextOptions,
): number {
  const { width: w, height: h, gx, gy } = grad;
  const x0 = Math.max(1, Math.round(a.x0));
  const x1 = Math.min(w - 2, Math.round(a.x1));
  const y0 = Math.max(1, Math.round(a.y0));
  const y1 = Math.min(h - 2, Math.round(a.y1));
  if (x1 - x0 < 24 || y1 - y0 < 8) return 0;
  const density: number[] = [];
  for (let yy = y0; yy <= y1; yy++) {
    let n = 0;
    for (let xx = x0; xx <= x1; xx++) {
      const i = yy * w + xx;
      if (Math.abs(gx[i]!) >= o.minStroke && Math.abs(gx[i]!) > Math.abs(gy[i]!)) n++;
    }
    density.push(n / (x1 - x0 + 1));
  }
  // A line: ≥ 2 dense rows, with a gap row before it and after it.
  let lines = 0;
  let run = 0;
  let sawGap = false;
  for (const d of density) {
    if (d >= o.rowDensity) {
      run++;
    } else {
      if (d <= o.gapDensity) {
        if (run >= 2 && sawGap) lines++;
        sawGap = true;
      }
      run = d <= o.gapDensity ? 0 : run;
    }
  }
  return lines;
}
