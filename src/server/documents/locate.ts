/**
 * Finds the document in a photograph: the largest bright region against its background (Otsu's
 * threshold on a reduced copy), its four sides as straight lines fitted to the region's outline and
 * then to the brightness edge in the full photo (sub-pixel), its corners where the sides meet, and
 * the document format from the straightened aspect ratio. (The extremes of x+y and x−y, the first
 * guess of the corners, are off by the reduction and by the threshold's rounding of the corners:
 * a few pixels that tilt the straightened page.)
 */
import type { Pt } from './homography';
import { boxMean, type Gray } from './raster';

/** A line through `p` along the unit vector `d`. */
export interface Edge {
  p: Pt;
  d: Pt;
}

/**
 * Total-least-squares line through points (the principal axis). With `reject`: started from the
 * line through two of the points that most points lie within `reject` of, then fitted to those
 * points, twice (a stray edge inside the page does not pull the side). Null with fewer than two
 * distinct points.
 *
 * @example
 * fitEdge([{ x: 0, y: 1 }, { x: 5, y: 1 }, { x: 9, y: 1 }]); // { p: { x: 4.67, y: 1 }, d: { x: 1, y: 0 } }
 */
export function fitEdge(points: readonly Pt[], reject = Infinity): Edge | null {
  const fit = (ps: readonly Pt[]): Edge | null => {
    if (ps.length < 2) return null;
    let mx = 0;
    let my = 0;
    for (const q of ps) {
      mx += q.x;
      my += q.y;
    }
    mx /= ps.length;
    my /= ps.length;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (const q of ps) {
      sxx += (q.x - mx) ** 2;
      syy += (q.y - my) ** 2;
      sxy += (q.x - mx) * (q.y - my);
    }
    if (sxx + syy < 1e-9) return null;
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    return { p: { x: mx, y: my }, d: { x: Math.cos(angle), y: Math.sin(angle) } };
  };
  if (!Number.isFinite(reject)) return fit(points);
  // A robust start: of the lines through two of the points, the one most points lie near.
  let e: Edge | null = null;
  let most = -1;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i]!;
      const b = points[j]!;
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      if (len < 1e-9) continue;
      const l: Edge = { p: a, d: { x: (b.x - a.x) / len, y: (b.y - a.y) / len } };
      let n = 0;
      for (const q of points) if (Math.abs(distance(l, q)) <= reject) n++;
      if (n > most) {
        most = n;
        e = l;
      }
    }
  }
  for (let pass = 0; pass < 2 && e; pass++) {
    const l: Edge = e;
    e = fit(points.filter((q) => Math.abs(distance(l, q)) <= reject)) ?? e;
  }
  return e;
}

/** Signed distance of a point from an edge (positive to the left of its direction). */
function distance(e: Edge, q: Pt): number {
  return (q.x - e.p.x) * -e.d.y + (q.y - e.p.y) * e.d.x;
}

/**
 * Where two lines meet, or null when they are (nearly) parallel.
 *
 * @example
 * intersect({ p: { x: 0, y: 2 }, d: { x: 1, y: 0 } }, { p: { x: 3, y: 0 }, d: { x: 0, y: 1 } });
 * // { x: 3, y: 2 }
 */
export function intersect(a: Edge, b: Edge): Pt | null {
  const den = a.d.x * b.d.y - a.d.y * b.d.x;
  if (Math.abs(den) < 1e-6) return null;
  const t = ((b.p.x - a.p.x) * b.d.y - (b.p.y - a.p.y) * b.d.x) / den;
  return { x: a.p.x + t * a.d.x, y: a.p.y + t * a.d.y };
}

/** Bilinear brightness at a point (pixel i covers [i, i+1), its centre at i + 0.5). */
function sample(g: Gray, px: number, py: number): number {
  const x = px - 0.5;
  const y = py - 0.5;
  const x0 = Math.max(0, Math.min(g.width - 2, Math.floor(x)));
  const y0 = Math.max(0, Math.min(g.height - 2, Math.floor(y)));
  const ax = Math.max(0, Math.min(1, x - x0));
  const ay = Math.max(0, Math.min(1, y - y0));
  const i = y0 * g.width + x0;
  const d = g.data;
  return (
    (d[i]! * (1 - ax) + d[i + 1]! * ax) * (1 - ay) +
    (d[i + g.width]! * (1 - ax) + d[i + g.width + 1]! * ax) * ay
  );
}

/**
 * Points of the strongest bright-inside edge along the normals of a rough side: at each of
 * `n` places between its ends, the brightness profile across it (±`reach` px, smoothed over a
 * short stretch along the side) and the sub-pixel position of its steepest rise.
 *
 * @example
 * const pts = edgePoints(photo, tl, tr, inward, 8, 40);
 */
export function edgePoints(g: Gray, a: Pt, b: Pt, inward: Pt, reach: number, n: number): Pt[] {
  const out: Pt[] = [];
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const along = { x: (b.x - a.x) / len, y: (b.y - a.y) / len };
  const step = 0.5;
  const steps = Math.ceil((2 * reach) / step);
  for (let k = 0; k < n; k++) {
    const t = 0.08 + (0.84 * k) / Math.max(1, n - 1);
    const c = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
    const prof: number[] = [];
    for (let s = 0; s <= steps; s++) {
      const o = -reach + s * step;
      let v = 0;
      for (const w of [-2, 0, 2]) {
        v += sample(g, c.x + inward.x * o + along.x * w, c.y + inward.y * o + along.y * w);
      }
      prof.push(v / 3);
    }
    let best = -1;
    let bestG = 0;
    for (let s = 1; s < steps; s++) {
      const grad = prof[s + 1]! - prof[s - 1]!;
      if (grad > bestG) {
        bestG = grad;
        best = s;
      }
    }
    if (best < 2 || best > steps - 2 || bestG < 8) continue;
    const gm = prof[best]! - prof[best - 2]!;
    const gp = prof[best + 2]! - prof[best]!;
    const den = gm - 2 * bestG + gp;
    const sub = den < 0 ? (0.5 * (gm - gp)) / den : 0;
    const o = -reach + (best + Math.max(-0.5, Math.min(0.5, sub))) * step;
    out.push({ x: c.x + inward.x * o, y: c.y + inward.y * o });
  }
  return out;
}

/** ICAO 9303 sizes in mm: TD3 passport page and TD1 card. */
export const DOC_MM = { TD3: { w: 125, h: 88 }, TD1: { w: 85.6, h: 54 } } as const;

function otsu(values: Float32Array): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of values) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let at = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      at = t;
    }
  }
  return at;
}

export interface Quad {
  /** Top-left, top-right, bottom-right, bottom-left, in photo pixels. */
  corners: Pt[];
  /** Straightened width over height. */
  aspect: number;
}

/**
 * Where the page is told from the table: Otsu's threshold, or (`low`) halfway from the dark
 * class's mean to it. Under a strong light fall-off a corner of the page can be darker than
 * Otsu's cut: the bright region then misses it, the rough corner sits inside the page and the
 * refined sides follow it. The low cut keeps that corner, at the risk of a light table joining
 * the page, so it is a second try only (`reader.ts`).
 */
export type PageThreshold = 'otsu' | 'low';

function pageThreshold(smooth: Float32Array, how: PageThreshold): number {
  const t = otsu(smooth);
  if (how === 'otsu') return t;
  let sum = 0;
  let n = 0;
  for (const v of smooth) {
    if (v > t) continue;
    sum += v;
    n++;
  }
  return n ? (sum / n + t) / 2 : t;
}

/**
 * The document's outline, or null when no bright region covers at least a tenth of the photo.
 *
 * @example
 * const quad = locateDocument(toGray(decodeImage(jpeg)));
 * const again = locateDocument(toGray(decodeImage(jpeg)), 'low'); // a dark corner kept
 */
export function locateDocument(g: Gray, threshold: PageThreshold = 'otsu'): Quad | null {
  const f = Math.max(1, Math.round(Math.max(g.width, g.height) / 320));
  const w = Math.floor(g.width / f);
  const h = Math.floor(g.height / f);
  const small = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++)
        for (let dx = 0; dx < f; dx++) s += g.data[(y * f + dy) * g.width + x * f + dx]!;
      small[y * w + x] = s / (f * f);
    }
  }
  const smooth = boxMean({ width: w, height: h, data: small }, 2);
  const t = pageThreshold(smooth, threshold);
  // Largest 4-connected bright component.
  const label = new Int32Array(w * h).fill(-1);
  let bestSize = 0;
  let bestLabel = -1;
  const stack: number[] = [];
  let next = 0;
  for (let i = 0; i < w * h; i++) {
    if (label[i] !== -1 || smooth[i]! <= t) continue;
    let size = 0;
    stack.push(i);
    label[i] = next;
    while (stack.length) {
      const p = stack.pop()!;
      size++;
      const x = p % w;
      const y = (p - x) / w;
      for (const q of [
        x > 0 ? p - 1 : -1,
        x < w - 1 ? p + 1 : -1,
        y > 0 ? p - w : -1,
        y < h - 1 ? p + w : -1,
      ]) {
        if (q >= 0 && label[q] === -1 && smooth[q]! > t) {
          label[q] = next;
          stack.push(q);
        }
      }
    }
    if (size > bestSize) {
      bestSize = size;
      bestLabel = next;
    }
    next++;
  }
  if (bestSize < (w * h) / 10) return null;
  let tl = { v: Infinity, p: { x: 0, y: 0 } };
  let br = { v: -Infinity, p: { x: 0, y: 0 } };
  let tr = { v: -Infinity, p: { x: 0, y: 0 } };
  let bl = { v: Infinity, p: { x: 0, y: 0 } };
  for (let i = 0; i < w * h; i++) {
    if (label[i] !== bestLabel) continue;
    const x = i % w;
    const y = (i - x) / w;
    const p = { x: (x + 0.5) * f, y: (y + 0.5) * f };
    if (x + y < tl.v) tl = { v: x + y, p };
    if (x + y > br.v) br = { v: x + y, p };
    if (x - y > tr.v) tr = { v: x - y, p };
    if (x - y < bl.v) bl = { v: x - y, p };
  }
  const rough = [tl.p, tr.p, br.p, bl.p];
  const corners = refineCorners(g, rough, f) ?? rough;
  const d = (a: Pt, b: Pt) => Math.hypot(a.x - b.x, a.y - b.y);
  const [c0, c1, c2, c3] = corners as [Pt, Pt, Pt, Pt];
  const width = (d(c0, c1) + d(c3, c2)) / 2;
  const height = (d(c0, c3) + d(c1, c2)) / 2;
  return { corners, aspect: width / height };
}

/**
 * Corners where the four sides meet, each side a line fitted to the brightness edge near the
 * rough quad's side; null (keep the rough corners) when a side has too few edge points or the
 * result strays from the rough quad by more than the reduction could explain.
 */
function refineCorners(g: Gray, rough: Pt[], f: number): Pt[] | null {
  const cx = rough.reduce((s, p) => s + p.x, 0) / 4;
  const cy = rough.reduce((s, p) => s + p.y, 0) / 4;
  const edges: Edge[] = [];
  for (let k = 0; k < 4; k++) {
    const a = rough[k]!;
    const b = rough[(k + 1) % 4]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    let inward = { x: -(b.y - a.y) / len, y: (b.x - a.x) / len };
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    if ((cx - mid.x) * inward.x + (cy - mid.y) * inward.y < 0)
      inward = { x: -inward.x, y: -inward.y };
    const pts = edgePoints(g, a, b, inward, 3 * f, 48);
    if (pts.length < 12) return null;
    const e = fitEdge(pts, 1.5);
    if (!e) return null;
    edges.push(e);
  }
  const out: Pt[] = [];
  for (let k = 0; k < 4; k++) {
    const p = intersect(edges[(k + 3) % 4]!, edges[k]!);
    if (!p || Math.hypot(p.x - rough[k]!.x, p.y - rough[k]!.y) > 6 * f) return null;
    out.push(p);
  }
  return out;
}

/**
 * The format whose page shape is nearer the measured aspect ratio (TD3 1.42, TD1 1.59).
 *
 * @example
 * formatByAspect(1.6); // 'TD1'
 */
export function formatByAspect(aspect: number): 'TD1' | 'TD3' {
  const td3 = DOC_MM.TD3.w / DOC_MM.TD3.h;
  const td1 = DOC_MM.TD1.w / DOC_MM.TD1.h;
  return Math.abs(aspect - td1) < Math.abs(aspect - td3) ? 'TD1' : 'TD3';
}
