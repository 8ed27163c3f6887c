/**
 * A flat picture (a print, a card, a screen) moved in 3D is one plane: the face points of any two
 * of its frames are related by a single homography, up to the landmark model's own scatter. A head
 * is not flat: when it turns or nods, the nose moves against the cheeks and the outline slides over
 * the face, and no homography maps one frame's points onto the other's.
 *
 * For each pair of frames the points are fitted twice, by least squares: with a similarity (move,
 * turn in the picture, scale: what a head or a picture moved without turning does) and with a
 * homography (everything a plane can do). Where the similarity leaves a clear residual the pair
 * shows a change of viewpoint; the homography's residual over it says whether a plane explains that
 * change (near 0) or not (a head: near 1).
 */
import { median } from '../../face-analysis/similarity';

/** Landmark points of one frame, `[x, y]` pixels, the same points in the same order per frame. */
export type Landmarks = readonly (readonly [number, number])[];

export interface PlanarityCue {
  /** Pairs of frames compared. */
  pairs: number;
  /** Pairs whose change the similarity could not explain (a change of viewpoint). */
  informative: number;
  /** The largest similarity residual, in eye distances. */
  deformation: number;
  /** Median over informative pairs of the homography's residual over the similarity's. */
  ratio: number | null;
  /** `planar`: a plane explains the motion; `depth`: it does not; `unknown`: too little motion. */
  verdict: 'planar' | 'depth' | 'unknown';
}

export interface PlanarityOptions {
  /** Indexes of the two eyes' corner pairs in the landmark list (for the eye distance). */
  eyes: readonly [number, number, number, number];
  /** Similarity residual (RMS, eye distances) from which a pair shows a change of viewpoint. */
  minDeformation: number;
  /** Informative pairs needed for a verdict. */
  minPairs: number;
  /** At or under this ratio the motion is planar. */
  planarRatio: number;
  /** At or over this ratio the motion has depth. */
  depthRatio: number;
}

/** Eye corners 33, 133, 362, 263 in `LANDMARK_INDEXES` (face-analysis/human-analyzer.ts). */
export const PLANARITY_DEFAULTS: PlanarityOptions = {
  eyes: [36, 37, 40, 41],
  minDeformation: 0.045,
  minPairs: 2,
  planarRatio: 0.35,
  depthRatio: 0.55,
};

type P = readonly [number, number];

/** Solves a small dense system by Gaussian elimination with partial pivoting; null if singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/** Least squares of rows `a` (each with its target in `b`): the normal equations solved. */
function leastSquares(rows: number[][], b: number[]): number[] | null {
  const k = rows[0]!.length;
  const ata = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const atb = new Array<number>(k).fill(0);
  rows.forEach((r, i) => {
    for (let p = 0; p < k; p++) {
      atb[p]! += r[p]! * b[i]!;
      for (let q = 0; q < k; q++) ata[p]![q]! += r[p]! * r[q]!;
    }
  });
  return solve(ata, atb);
}

/** Points moved to their centroid and scaled to a mean distance of √2 (Hartley), for stability. */
function normalise(ps: readonly P[]): { pts: [number, number][]; s: number } {
  let mx = 0;
  let my = 0;
  for (const [x, y] of ps) {
    mx += x;
    my += y;
  }
  mx /= ps.length;
  my /= ps.length;
  let d = 0;
  for (const [x, y] of ps) d += Math.hypot(x - mx, y - my);
  const s = d > 0 ? (Math.SQRT2 * ps.length) / d : 1;
  return { pts: ps.map(([x, y]) => [(x - mx) * s, (y - my) * s]), s };
}

/**
 * RMS residual (pixels of `to`) of the best similarity taking `from` to `to`.
 *
 * @example
 * similarityResidual([[0, 0], [1, 0], [0, 1]], [[2, 2], [4, 2], [2, 4]]); // ≈ 0
 */
export function similarityResidual(from: readonly P[], to: readonly P[]): number {
  const rows: number[][] = [];
  const b: number[] = [];
  from.forEach(([x, y], i) => {
    rows.push([x, -y, 1, 0]);
    b.push(to[i]![0]);
    rows.push([y, x, 0, 1]);
    b.push(to[i]![1]);
  });
  const p = leastSquares(rows, b);
  if (!p) return Infinity;
  let s = 0;
  from.forEach(([x, y], i) => {
    const u = p[0]! * x - p[1]! * y + p[2]!;
    const v = p[1]! * x + p[0]! * y + p[3]!;
    s += (u - to[i]![0]) ** 2 + (v - to[i]![1]) ** 2;
  });
  return Math.sqrt(s / from.length);
}

/**
 * RMS residual (pixels of `to`) of the best homography taking `from` to `to` (algebraic least
 * squares on normalised points, h₃₃ = 1).
 *
 * @example
 * homographyResidual(square, perspectiveOfSquare); // ≈ 0: one plane
 */
export function homographyResidual(from: readonly P[], to: readonly P[]): number {
  const a = normalise(from);
  const c = normalise(to);
  const rows: number[][] = [];
  const b: number[] = [];
  a.pts.forEach(([x, y], i) => {
    const [u, v] = c.pts[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  });
  const h = leastSquares(rows, b);
  if (!h) return Infinity;
  let s = 0;
  a.pts.forEach(([x, y], i) => {
    const w = h[6]! * x + h[7]! * y + 1;
    const u = (h[0]! * x + h[1]! * y + h[2]!) / w;
    const v = (h[3]! * x + h[4]! * y + h[5]!) / w;
    s += (u - c.pts[i]![0]) ** 2 + (v - c.pts[i]![1]) ** 2;
  });
  // Back to pixels of `to`.
  return Math.sqrt(s / from.length) / c.s;
}

/**
 * Whether the face points of a set of frames moved as one plane: every pair of frames is fitted
 * (similarity, homography); the pairs whose similarity residual reaches `minDeformation` eye
 * distances decide by the median of homography / similarity residuals.
 *
 * @example
 * planarMotion(framesOfATiltedCard).verdict; // 'planar'
 * planarMotion(framesOfATurningHead).verdict; // 'depth'
 */
export function planarMotion(
  frames: readonly Landmarks[],
  options: Partial<PlanarityOptions> = {},
): PlanarityCue {
  const o = { ...PLANARITY_DEFAULTS, ...options };
  const eyeDistance = (l: Landmarks) => {
    const [a, b, c, d] = o.eyes;
    const e1 = [(l[a]![0] + l[b]![0]) / 2, (l[a]![1] + l[b]![1]) / 2];
    const e2 = [(l[c]![0] + l[d]![0]) / 2, (l[c]![1] + l[d]![1]) / 2];
    return Math.hypot(e1[0]! - e2[0]!, e1[1]! - e2[1]!);
  };
  const usable = frames.filter((l) => l.length > Math.max(...o.eyes) && eyeDistance(l) > 4);
  const ratios: number[] = [];
  let pairs = 0;
  let deformation = 0;
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      pairs++;
      const from = usable[i]!;
      const to = usable[j]!;
      const iod = eyeDistance(to);
      const rs = similarityResidual(from, to) / iod;
      deformation = Math.max(deformation, rs);
      if (rs < o.minDeformation) continue;
      ratios.push(homographyResidual(from, to) / iod / rs);
    }
  }
  const ratio = ratios.length ? median(ratios) : null;
  const verdict =
    ratio === null || ratios.length < o.minPairs
      ? 'unknown'
      : ratio <= o.planarRatio
        ? 'planar'
        : ratio >= o.depthRatio
          ? 'depth'
          : 'unknown';
  return { pairs, informative: ratios.length, deformation, ratio, verdict };
}
