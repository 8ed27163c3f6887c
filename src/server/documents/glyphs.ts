/**
 * Reads a straightened MRZ band glyph by glyph. MRZ is printed in one font (OCR-B) at a fixed
 * pitch in lines of a known length, so each line is cut into its cells and every cell compared
 * with OCR-B templates, choosing only among the characters its position allows.
 */
import { classesOf, type CharClass, type MrzLayout } from '../../core/mrz';
import type { Gray } from './raster';

/** Cell raster size the templates and cells are compared at. */
export const CELL_W = 16;
export const CELL_H = 24;
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

export type Templates = Record<string, Float32Array>;

export interface GlyphRead {
  lines: string[];
  /** Lowest best-match score (correlation, −1..1) of any cell. */
  minScore: number;
  /** Smallest gap between the best and the second-best allowed character of any cell. */
  minMargin: number;
  /** That gap per position (lines joined). */
  margins: number[];
}

/** Offsets (in pitches) each cell is also cut at; index 2 is the nominal cut. */
export const SHIFTS = [-0.24, -0.12, 0, 0.12, 0.24] as const;

const ALLOWED: Record<CharClass, string> = {
  digit: '0123456789',
  check: '0123456789<',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ<',
  alnum: ALPHABET,
  sex: 'MFX<',
};

/** Rows of text: runs of rows with ink, tallest-first order kept top to bottom. */
function textRows(ink: Uint8Array, w: number, h: number): { y0: number; y1: number }[] {
  const rows: { y0: number; y1: number }[] = [];
  let start = -1;
  const minInk = Math.max(3, w * 0.01);
  for (let y = 0; y <= h; y++) {
    let c = 0;
    if (y < h) for (let x = 0; x < w; x++) c += ink[y * w + x]!;
    if (y < h && c >= minInk) {
      if (start < 0) start = y;
    } else if (start >= 0) {
      rows.push({ y0: start, y1: y });
      start = -1;
    }
  }
  return rows;
}

/** A cell resampled to CELL_W × CELL_H, zero mean and unit length (for correlation). */
export function normalizeCell(
  g: Gray,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): Float32Array {
  const out = new Float32Array(CELL_W * CELL_H);
  const sx = (x1 - x0) / CELL_W;
  const sy = (y1 - y0) / CELL_H;
  for (let cy = 0; cy < CELL_H; cy++) {
    for (let cx = 0; cx < CELL_W; cx++) {
      let s = 0;
      let n = 0;
      for (let y = Math.floor(y0 + cy * sy); y < Math.ceil(y0 + (cy + 1) * sy); y++) {
        for (let x = Math.floor(x0 + cx * sx); x < Math.ceil(x0 + (cx + 1) * sx); x++) {
          const v =
            x >= 0 && y >= 0 && x < g.width && y < g.height ? g.data[y * g.width + x]! : 255;
          s += 255 - v;
          n++;
        }
      }
      out[cy * CELL_W + cx] = n ? s / n : 0;
    }
  }
  let mean = 0;
  for (const v of out) mean += v;
  mean /= out.length;
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = out[i]! - mean;
    norm += out[i]! * out[i]!;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}

/**
 * The cells of the last `lines` text rows of a band, each `count` cells wide (each cut at every
 * `SHIFTS` offset), or null when the
 * band does not hold that many rows of MRZ-like height.
 *
 * @example
 * const cells = cutCells(band, 2, 44);
 */
export function cutCells(g: Gray, lines: number, count: number): Float32Array[][][] | null {
  const { width: w, height: h } = g;
  // Ink: darker than the local page by a margin (the band is already light-flattened).
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) ink[i] = g.data[i]! < 150 ? 1 : 0;
  const rows = textRows(ink, w, h).filter((r) => r.y1 - r.y0 >= 8);
  if (rows.length < lines) return null;
  const picked = rows.slice(-lines);
  const out: Float32Array[][][] = [];
  for (const r of picked) {
    const cols = new Uint16Array(w);
    for (let y = r.y0; y < r.y1; y++) for (let x = 0; x < w; x++) cols[x]! += ink[y * w + x]!;
    let left = 0;
    while (left < w && cols[left]! < 2) left++;
    let right = w - 1;
    while (right > left && cols[right]! < 2) right--;
    if (right - left < count * 4) return null;
    const pitch = (right - left + 1) / (count - 0.3);
    const pad = (r.y1 - r.y0) * 0.12;
    const cells: Float32Array[][] = [];
    for (let i = 0; i < count; i++) {
      // A residual tilt makes the pitch drift: each cell is also cut a little left and right.
      cells.push(
        SHIFTS.map((s) => {
          const c = left + (i + 0.35 + s) * pitch;
          return normalizeCell(g, c - pitch / 2, r.y0 - pad, c + pitch / 2, r.y1 + pad);
        }),
      );
    }
    out.push(cells);
  }
  return out;
}

function score(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Reads a band as a zone of `layout`, each cell the best allowed template.
 *
 * @example
 * const r = readGlyphs(band, TD3, templates);
 * r?.lines; // ['P<UTO…', 'L898902C3…']
 */
export function readGlyphs(g: Gray, layout: MrzLayout, templates: Templates): GlyphRead | null {
  const cells = cutCells(g, layout.lines, layout.lineLength);
  if (!cells) return null;
  const classes = classesOf(layout);
  let minScore = 1;
  let minMargin = 1;
  const margins: number[] = [];
  const lines = cells.map((row, li) => {
    let drift = 2;
    let text = '';
    for (let ci = 0; ci < row.length; ci++) {
      const allowed = ALLOWED[classes[li * layout.lineLength + ci]!];
      let best = '';
      let b1 = -2;
      let b2 = -2;
      let bestShift = drift;
      // Only shifts next to the last one: the drift is slow, a jump would be a misfit.
      for (let k = Math.max(0, drift - 1); k <= Math.min(SHIFTS.length - 1, drift + 1); k++) {
        const cell = row[ci]![k]!;
        let c1 = -2;
        let c2 = -2;
        let cb = '';
        for (const ch of allowed) {
          const t = templates[ch];
          if (!t) continue;
          const s = score(cell, t);
          if (s > c1) {
            c2 = c1;
            c1 = s;
            cb = ch;
          } else if (s > c2) c2 = s;
        }
        if (c1 > b1) {
          b1 = c1;
          b2 = c2;
          best = cb;
          bestShift = k;
        }
      }
      drift = bestShift;
      minScore = Math.min(minScore, b1);
      minMargin = Math.min(minMargin, b1 - b2);
      margins.push(b1 - b2);
      text += best;
    }
    return text;
  });
  return { lines, minScore, minMargin, margins };
}
