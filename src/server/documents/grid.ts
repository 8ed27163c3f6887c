/**
 * Where each character cell of a machine-readable zone lies, measured from the image itself.
 * Straightening from the page outline leaves a small tilt and scale error that, along a 44-cell
 * line, moves the last cells by a good part of a pitch; MRZ text is one glyph per cell at a fixed
 * pitch, so the glyphs' own ink (connected components chained into rows) gives each row's top and
 * bottom lines and its pitch by straight-line fits, and each cell is then cut around the ink that
 * falls in it.
 */
import type { Gray } from './raster';

/** A connected run of ink: bounding box and pixel count. */
export interface Blob {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  y1: number;
  n: number;
}

/** y = a + b·x, or x = a + b·i for a row's cells. */
export interface Line {
  a: number;
  b: number;
}

export interface GridRow {
  /** Top and bottom of the row's full-height glyphs, as lines in x. */
  top: Line;
  bottom: Line;
  /** Centre x of cell i: a + b·i. */
  cells: Line;
  /** The blobs of the row, sorted by x. */
  blobs: Blob[];
  /** Its glyphs span exactly the zone's cells: the start is measured, not inferred. */
  complete: boolean;
}

const cx = (b: Blob) => (b.x0 + b.x1) / 2;
const cy = (b: Blob) => (b.y0 + b.y1) / 2;
const bh = (b: Blob) => b.y1 - b.y0;
const median = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};

/**
 * The 8-connected components of a binary raster (1 = ink).
 *
 * @example
 * components(new Uint8Array([1, 0, 0, 1]), 4, 1).length; // 2
 */
export function components(ink: Uint8Array, w: number, h: number): Blob[] {
  const seen = new Uint8Array(w * h);
  const out: Blob[] = [];
  const stack: number[] = [];
  for (let i = 0; i < w * h; i++) {
    if (!ink[i] || seen[i]) continue;
    const b: Blob = { x0: w, y0: h, x1: 0, y1: 0, n: 0 };
    seen[i] = 1;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      b.n++;
      if (x < b.x0) b.x0 = x;
      if (y < b.y0) b.y0 = y;
      if (x + 1 > b.x1) b.x1 = x + 1;
      if (y + 1 > b.y1) b.y1 = y + 1;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const q = yy * w + xx;
          if (ink[q] && !seen[q]) {
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
    }
    out.push(b);
  }
  return out;
}

/**
 * Line y = a + b·x through points: a robust start (Theil–Sen: the median of pairwise slopes),
 * then least squares over the points within `reject` of it, twice (ink that is not part of the
 * line, a stray speck or glyphs run together, does not pull the fit). Null with fewer than two
 * points or all at one x.
 *
 * @example
 * fitLine([[0, 1], [1, 3], [2, 5], [3, 40]], 2); // { a: 1, b: 2 } (the last point is dropped)
 */
export function fitLine(
  points: readonly (readonly [number, number])[],
  reject = Infinity,
): Line | null {
  const lsq = (ps: readonly (readonly [number, number])[]): Line | null => {
    const n = ps.length;
    if (n < 2) return null;
    let sx = 0;
    let sy = 0;
    for (const [x, y] of ps) {
      sx += x;
      sy += y;
    }
    const mx = sx / n;
    const my = sy / n;
    let sxx = 0;
    let sxy = 0;
    for (const [x, y] of ps) {
      sxx += (x - mx) * (x - mx);
      sxy += (x - mx) * (y - my);
    }
    if (sxx < 1e-9) return null;
    const b = sxy / sxx;
    return { a: my - b * mx, b };
  };
  if (!Number.isFinite(reject)) return lsq(points);
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j]![0] - points[i]![0];
      if (Math.abs(dx) > 1e-9) slopes.push((points[j]![1] - points[i]![1]) / dx);
    }
  }
  if (!slopes.length) return null;
  const b = median(slopes);
  let line: Line = { a: median(points.map(([x, y]) => y - b * x)), b };
  for (let pass = 0; pass < 2; pass++) {
    const l = line;
    const next = lsq(points.filter(([x, y]) => Math.abs(y - (l.a + l.b * x)) <= reject));
    if (!next) break;
    line = next;
  }
  return line;
}

/**
 * Chains blobs into text rows: each blob links to the nearest blob to its right that lies within
 * `maxGap` and at about the same height, so a residual tilt does not split a row.
 *
 * @example
 * chainRows(blobs, 60).filter((r) => r.length >= 20);
 */
export function chainRows(blobs: readonly Blob[], maxGap: number): Blob[][] {
  const sorted = [...blobs].sort((p, q) => cx(p) - cx(q));
  const parent = sorted.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < sorted.length; i++) {
    const b = sorted[i]!;
    let best = -1;
    let bestDx = Infinity;
    for (let j = i + 1; j < sorted.length; j++) {
      const c = sorted[j]!;
      const dx = cx(c) - cx(b);
      if (dx > maxGap) break;
      if (dx <= 0) continue;
      const tol = 0.35 * Math.max(bh(b), bh(c));
      if (Math.abs(cy(c) - cy(b)) > tol) continue;
      if (dx < bestDx) {
        bestDx = dx;
        best = j;
      }
    }
    if (best >= 0) parent[find(best)] = find(i);
  }
  const groups = new Map<number, Blob[]>();
  sorted.forEach((b, i) => {
    const r = find(i);
    const g = groups.get(r) ?? [];
    g.push(b);
    groups.set(r, g);
  });
  return [...groups.values()];
}

/**
 * The pitch and phase of glyph centres along a row: the period within ±15% of `nominal` at which
 * the centres line up best (the length of the mean of e^(2πi·x/pitch)), and an x on that grid.
 * Needs no cell numbering, so a lost, split or merged glyph does not shift the cells after it.
 *
 * @example
 * pitchAndPhase([10, 35.5, 61, 112], 25); // { pitch: 25.5, phase: ≈10 }
 */
export function pitchAndPhase(
  xs: readonly number[],
  nominal: number,
): { pitch: number; phase: number } {
  let best = { pitch: nominal, phase: xs[0] ?? 0, r: -1 };
  for (let f = 0.85; f <= 1.15; f += 0.0005) {
    const p = nominal * f;
    let c = 0;
    let s = 0;
    for (const x of xs) {
      const a = (2 * Math.PI * x) / p;
      c += Math.cos(a);
      s += Math.sin(a);
    }
    const r = c * c + s * s;
    if (r > best.r) {
      const phase = ((Math.atan2(s, c) / (2 * Math.PI)) * p + p) % p;
      best = { pitch: p, phase, r };
    }
  }
  return { pitch: best.pitch, phase: best.phase };
}

/**
 * The rows of a zone of `lines` × `count` cells in a straightened band whose nominal pitch is
 * `pitch` pixels: the bottom-most `lines` rows of blobs, each with its top, bottom and cell lines.
 * Null when the band does not hold that many rows of zone-like text.
 *
 * @example
 * const rows = findGrid(band, 2, 44, 25.4);
 */
export function findGrid(g: Gray, lines: number, count: number, pitch: number): GridRow[] | null {
  const { width: w, height: h } = g;
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) ink[i] = g.data[i]! < 150 ? 1 : 0;
  // Glyphs are about a pitch tall; specks and page edges are not.
  const blobs = components(ink, w, h).filter(
    (b) =>
      b.n >= pitch * 0.6 &&
      bh(b) >= pitch * 0.2 &&
      bh(b) <= pitch * 2.2 &&
      b.x1 - b.x0 <= pitch * 1.6,
  );
  const rows = chainRows(blobs, pitch * 3.5)
    .filter((r) => r.length >= Math.max(6, count * 0.35))
    .sort((p, q) => median(p.map(cy)) - median(q.map(cy)));
  if (rows.length < lines) return null;
  const picked = rows.slice(-lines);
  const out: GridRow[] = [];
  for (const row of picked) {
    // Full-height glyphs give the row's top and bottom; fillers `<` are shorter and may be most
    // of a row, so the height is taken from the tallest glyphs, not the median one.
    const heights = row.map(bh).sort((p, q) => p - q);
    const q90 = heights[Math.floor(heights.length * 0.9)]!;
    const tall = median(heights.filter((v) => v >= q90 * 0.75));
    const full = row.filter((b) => bh(b) >= tall * 0.8 && bh(b) <= tall * 1.25);
    const top = fitLine(
      full.map((b) => [cx(b), b.y0] as const),
      tall * 0.15,
    );
    const bottom = fitLine(
      full.map((b) => [cx(b), b.y1] as const),
      tall * 0.15,
    );
    if (!top || !bottom) return null;
    const xs = row.map(cx);
    const { pitch: p, phase } = pitchAndPhase(xs, pitch);
    const idx = xs.map((x) => Math.round((x - phase) / p));
    const first = Math.min(...idx);
    const cells = fitLine(
      idx.map((i, k) => [i - first, xs[k]!] as const),
      p * 0.3,
    );
    if (!cells) return null;
    out.push({ top, bottom, cells, blobs: row, complete: false });
  }
  alignStarts(out, count);
  return out;
}

/**
 * Puts each row's cell 0 on its first glyph. A row whose blobs span fewer than `count` cells
 * (a lost glyph at an end) takes its start from the rows that span them all, since the lines of
 * a zone start at the same x.
 */
function alignStarts(rows: GridRow[], count: number): void {
  const span = (r: GridRow) => {
    const first = (cx(r.blobs[0]!) - r.cells.a) / r.cells.b;
    const last = (cx(r.blobs[r.blobs.length - 1]!) - r.cells.a) / r.cells.b;
    return { first, last };
  };
  const full = rows.filter((r) => {
    const s = span(r);
    return Math.round(s.last - s.first) === count - 1;
  });
  for (const r of rows) {
    const s = span(r);
    let start = Math.round(s.first);
    r.complete = Math.round(s.last - s.first) === count - 1;
    if (!r.complete && full.length) {
      // The start x the complete rows agree on, at this row's pitch.
      const x0 = median(full.map((f) => f.cells.a + f.cells.b * Math.round(span(f).first)));
      start = Math.round((x0 - r.cells.a) / r.cells.b);
    } else if (Math.round(s.last - s.first) > count - 1) {
      // More blobs than cells: a mark beside the zone; keep the end that has a glyph per cell.
      start = Math.round(s.last) - (count - 1);
    }
    r.cells = { a: r.cells.a + r.cells.b * start, b: r.cells.b };
  }
}
