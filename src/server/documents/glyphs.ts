/**
 * Reads a straightened MRZ band glyph by glyph. MRZ is printed in one font (OCR-B) at a fixed
 * pitch in lines of a known length: the grid of cells is measured from the ink (`grid.ts`), each
 * cell is cut around its glyph and compared with OCR-B templates, and every cell keeps the score
 * of every character so that the decision (`decide.ts`) can weigh near ties against check digits.
 */
import type { MrzLayout } from '../../core/mrz';
import { findGrid, type GridRow } from './grid';
import type { Gray } from './raster';

/** Cell raster size the templates and cells are compared at. */
export const CELL_W = 16;
export const CELL_H = 24;
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
/** Nominal pitch of MRZ characters (2.54 mm) in the straightened band's pixels (10 px/mm). */
export const PITCH_PX = 25.4;
/** OCR-B's digit height over its pitch (measured on renders: capitals are about 0.91). */
const GLYPH_HEIGHT_PER_PITCH = 1.03;
/** Margin above and below the glyph height a cell is cut with (fraction of the height). */
const PAD = 0.15;

/** Every character's templates (one per degradation level the templates were made at). */
export type Templates = Record<string, Float32Array[]>;

export interface GlyphRead {
  lines: string[];
  /** Per position (lines joined): the score (correlation, −1..1) of every ALPHABET character. */
  scores: Float32Array[];
}

/**
 * Where a cell is cut: centre, half-width vector (along the row) and half-height vector.
 */
export interface CellFrame {
  x: number;
  y: number;
  ux: number;
  uy: number;
  vx: number;
  vy: number;
}

function bilinear(g: Gray, x: number, y: number): number {
  const fx = x - 0.5;
  const fy = y - 0.5;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= g.width || y0 + 1 >= g.height) return 255;
  const ax = fx - x0;
  const ay = fy - y0;
  const d = g.data;
  const i = y0 * g.width + x0;
  const top = d[i]! + (d[i + 1]! - d[i]!) * ax;
  const bottom = d[i + g.width]! + (d[i + g.width + 1]! - d[i + g.width]!) * ax;
  return top + (bottom - top) * ay;
}

/** Samples per output pixel along each axis (the cell is reduced about 1.6 times). */
const SUB = 2;

/**
 * A cell resampled to CELL_W × CELL_H (ink positive), zero mean and unit length (for
 * correlation). Each output pixel averages SUB × SUB bilinear samples, so the cut is smooth in
 * its position and angle.
 *
 * @example
 * const v = sampleCell(band, { x: 40, y: 30, ux: 12.7, uy: 0, vx: 0, vy: 18 });
 */
export function sampleCell(g: Gray, f: CellFrame): Float32Array {
  const out = new Float32Array(CELL_W * CELL_H);
  for (let cy = 0; cy < CELL_H; cy++) {
    for (let cx = 0; cx < CELL_W; cx++) {
      let s = 0;
      for (let sy = 0; sy < SUB; sy++) {
        const v = ((cy + (sy + 0.5) / SUB) / CELL_H) * 2 - 1;
        for (let sx = 0; sx < SUB; sx++) {
          const u = ((cx + (sx + 0.5) / SUB) / CELL_W) * 2 - 1;
          s += 255 - bilinear(g, f.x + u * f.ux + v * f.vx, f.y + u * f.uy + v * f.vy);
        }
      }
      out[cy * CELL_W + cx] = s;
    }
  }
  return normalize(out);
}

function normalize(out: Float32Array): Float32Array {
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
 * The frame of cell `i` of a measured row: centred on the ink found in the cell (else on the
 * fitted position), as tall as the row's glyphs plus a margin, turned with the row.
 *
 * @example
 * const f = cellFrame(rows[0]!, 3);
 */
export function cellFrame(row: GridRow, i: number): CellFrame {
  const pitch = row.cells.b;
  let x = row.cells.a + pitch * i;
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const b of row.blobs) {
    const c = (b.x0 + b.x1) / 2;
    if (Math.abs(c - x) < pitch * 0.45) {
      x0 = Math.min(x0, b.x0);
      x1 = Math.max(x1, b.x1);
    }
  }
  // Ink wider than a cell is glyphs run together: keep the fitted centre then.
  if (x1 > x0 && x1 - x0 < pitch * 1.1) x = (x0 + x1) / 2;
  // Digits stand taller than capitals in OCR-B, so a row's measured top depends on what it
  // says: the frame hangs from the baseline at a height fixed by the pitch (the font's shape).
  const yb = row.bottom.a + row.bottom.b * x;
  const h = pitch * GLYPH_HEIGHT_PER_PITCH;
  const height = h * (1 + 2 * PAD);
  const slope = (row.top.b + row.bottom.b) / 2;
  const len = Math.hypot(1, slope);
  const c = 1 / len;
  const s = slope / len;
  return {
    x,
    y: yb - h / 2,
    ux: (c * pitch) / 2,
    uy: (s * pitch) / 2,
    vx: (-s * height) / 2,
    vy: (c * height) / 2,
  };
}

/** Offsets each cell is also cut at (fractions of the half-width and half-height). */
const SHIFTS: readonly (readonly [number, number])[] = [
  [0, 0],
  [-0.12, 0],
  [0.12, 0],
  [0, -0.08],
  [0, 0.08],
];

/**
 * The cells of a zone of `lines` × `count` in a band whose pitch is about `pitch` pixels, each cut
 * at every SHIFTS offset; null when the band does not hold that grid. With `templates`, a row
 * whose start could not be measured is placed where its cells look most like glyphs.
 *
 * @example
 * const cells = cutCells(band, 2, 44);
 */
export function cutCells(
  g: Gray,
  lines: number,
  count: number,
  pitch = PITCH_PX,
  templates?: Templates,
): Float32Array[][][] | null {
  const rows = findGrid(g, lines, count, pitch);
  if (!rows) return null;
  return rows.map((measured) => {
    const row =
      templates && !measured.complete ? bestStart(g, measured, count, templates) : measured;
    const cells: Float32Array[][] = [];
    for (let i = 0; i < count; i++) {
      const f = cellFrame(row, i);
      cells.push(
        SHIFTS.map(([du, dv]) =>
          sampleCell(g, {
            ...f,
            x: f.x + du * f.ux + dv * f.vx,
            y: f.y + du * f.uy + dv * f.vy,
          }),
        ),
      );
    }
    return cells;
  });
}

/**
 * A row whose glyphs do not span the zone (one lost or merged at an end, and no complete row to
 * take the start from) could start a cell or two either way: the start whose cells look most like
 * glyphs, summed over the row (a cell off the end of the line is blank and scores near 0).
 */
function bestStart(g: Gray, row: GridRow, count: number, templates: Templates): GridRow {
  // One template a character is enough to tell a glyph from a blank.
  const all = Object.values(templates).map((list) => list[0]!);
  let best = row;
  let bestSum = -Infinity;
  for (const o of [0, -1, 1, -2, 2]) {
    const r = { ...row, cells: { a: row.cells.a + o * row.cells.b, b: row.cells.b } };
    let sum = 0;
    for (let i = 0; i < count; i++) {
      const cell = sampleCell(g, cellFrame(r, i));
      let m = -1;
      for (const t of all) m = Math.max(m, dot(cell, t));
      sum += m;
    }
    if (sum > bestSum + 1e-6) {
      bestSum = sum;
      best = r;
    }
  }
  return best;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Reads a band as a zone of `layout` (pitch about `pitch` pixels): every cell scored against every
 * character (best over its templates and shifts), the text being each cell's best character.
 *
 * @example
 * const r = readGlyphs(band, TD3, templates);
 * r?.lines; // ['P<UTO…', 'L898902C3…']
 */
export function readGlyphs(
  g: Gray,
  layout: MrzLayout,
  templates: Templates,
  pitch = PITCH_PX,
): GlyphRead | null {
  const cells = cutCells(g, layout.lines, layout.lineLength, pitch, templates);
  if (!cells) return null;
  const scores: Float32Array[] = [];
  const lines = cells.map((row) => {
    let text = '';
    for (const shifted of row) {
      const sc = new Float32Array(ALPHABET.length).fill(-2);
      for (let k = 0; k < ALPHABET.length; k++) {
        for (const t of templates[ALPHABET[k]!] ?? []) {
          for (const cell of shifted) sc[k] = Math.max(sc[k]!, dot(cell, t));
        }
      }
      let best = 0;
      for (let k = 1; k < sc.length; k++) if (sc[k]! > sc[best]!) best = k;
      text += ALPHABET[best];
      scores.push(sc);
    }
    return text;
  });
  return { lines, scores };
}
