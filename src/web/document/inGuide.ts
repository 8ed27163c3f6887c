import type { Gray } from './gray';
import type { Rect } from './guide';

/** Which edges of a document were found along the guide's sides. */
export interface GuideFit {
  top: boolean;
  bottom: boolean;
  left: boolean;
  right: boolean;
  /** How many of the four were found. */
  found: number;
}

export interface GuideFitOptions {
  /** The document's edges may lie from `inner` to `outer` times the guide's half-size from its centre. */
  inner: number;
  outer: number;
  /** Least grey-level step across an edge (over two pixels, smoothed along it). */
  minStep: number;
  /** Share of the probed positions along a side that must lie on one straight edge. */
  minShare: number;
  /** How far (pixels of the copy) a point may lie off that edge and still count. */
  tolerance: number;
}

export const GUIDE_FIT: GuideFitOptions = {
  inner: 0.72,
  outer: 1.12,
  minStep: 30,
  minShare: 0.5,
  tolerance: 2,
};

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/**
 * One side: along `positions` (columns for top/bottom, rows for left/right) the strongest step
 * across the side inside the band, then whether most of them lie on one straight line (a
 * document's edge, possibly a little tilted) rather than scattered (text, a patterned table).
 */
function sideFound(
  step: (along: number, across: number) => number,
  positions: number[],
  band: [number, number],
  o: GuideFitOptions,
): boolean {
  const [from, to] = band[0] <= band[1] ? band : [band[1], band[0]];
  const points: { a: number; c: number }[] = [];
  for (const a of positions) {
    let best = 0;
    let at = -1;
    for (let c = from; c <= to; c++) {
      const s = step(a, c);
      if (s > best) {
        best = s;
        at = c;
      }
    }
    if (best >= o.minStep) points.push({ a, c: at });
  }
  if (points.length < positions.length * o.minShare) return false;
  // A line through the median points of each half: robust to a few stray text edges.
  const half = positions[Math.floor(positions.length / 2)]!;
  const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
  const left = points.filter((p) => p.a < half);
  const right = points.filter((p) => p.a >= half);
  if (left.length === 0 || right.length === 0) return false;
  const a1 = median(left.map((p) => p.a));
  const c1 = median(left.map((p) => p.c));
  const a2 = median(right.map((p) => p.a));
  const c2 = median(right.map((p) => p.c));
  const slope = a2 === a1 ? 0 : (c2 - c1) / (a2 - a1);
  const on = points.filter((p) => Math.abs(c1 + slope * (p.a - a1) - p.c) <= o.tolerance).length;
  return on >= positions.length * o.minShare;
}

/**
 * Whether something document-like fills the guide: for each side of the guide, a straight edge
 * (a step in brightness running along it) between `inner` and `outer` of the guide's size. Only
 * the middle 60% of each side is probed, so rounded corners and fingers holding the document do
 * not count against it. Runs on a small grey copy of the frame (a few hundred pixels wide).
 *
 * @example
 * const fit = fitInGuide(gray, guide);
 * if (fit.found >= 3) { … } // the document is in the frame
 */
export function fitInGuide(g: Gray, guide: Rect, opts: Partial<GuideFitOptions> = {}): GuideFit {
  const o = { ...GUIDE_FIT, ...opts };
  const { width: w, height: h, data } = g;
  const px = (x: number, y: number) => data[clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1)]!;
  // Steps across a horizontal edge (top, bottom) and a vertical one (left, right), smoothed
  // over three pixels along the edge so sensor noise does not make one.
  const stepY = (x: number, y: number) =>
    Math.abs(
      px(x - 1, y + 1) +
        px(x, y + 1) +
        px(x + 1, y + 1) -
        px(x - 1, y - 1) -
        px(x, y - 1) -
        px(x + 1, y - 1),
    ) / 3;
  const stepX = (y: number, x: number) =>
    Math.abs(
      px(x + 1, y - 1) +
        px(x + 1, y) +
        px(x + 1, y + 1) -
        px(x - 1, y - 1) -
        px(x - 1, y) -
        px(x - 1, y + 1),
    ) / 3;
  const cx = guide.x + guide.width / 2;
  const cy = guide.y + guide.height / 2;
  const hw = guide.width / 2;
  const hh = guide.height / 2;
  const span = (from: number, to: number, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(Math.round(from + ((to - from) * i) / (n - 1)));
    return out;
  };
  const columns = span(cx - hw * 0.6, cx + hw * 0.6, 24);
  const rows = span(cy - hh * 0.6, cy + hh * 0.6, 16);
  const band = (c: number, half: number, sign: number): [number, number] => [
    clamp(Math.round(c + sign * half * o.inner), 1, Number.MAX_SAFE_INTEGER),
    Math.round(c + sign * half * o.outer),
  ];
  const fit = {
    top: sideFound(stepY, columns, clampBand(band(cy, hh, -1), h), o),
    bottom: sideFound(stepY, columns, clampBand(band(cy, hh, 1), h), o),
    left: sideFound(stepX, rows, clampBand(band(cx, hw, -1), w), o),
    right: sideFound(stepX, rows, clampBand(band(cx, hw, 1), w), o),
  };
  return { ...fit, found: Object.values(fit).filter(Boolean).length };
}

function clampBand([a, b]: [number, number], size: number): [number, number] {
  return [clamp(a, 1, size - 2), clamp(b, 1, size - 2)];
}
