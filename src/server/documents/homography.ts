/**
 * Plane-to-plane mapping (a 3×3 homography) from four point pairs: straightens a photographed
 * document and, in the test renderer, puts a flat document into a photograph.
 */

export interface Pt {
  x: number;
  y: number;
}

/** Row-major 3×3 matrix with h[8] = 1. */
export type Homography = readonly number[];

function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * The homography taking each `from[i]` to `to[i]`, or null for a degenerate quad.
 *
 * @example
 * const h = homography([{x:0,y:0},{x:1,y:0},{x:1,y:1},{x:0,y:1}],
 *   [{x:0,y:0},{x:2,y:0},{x:2,y:2},{x:0,y:2}]);
 * apply(h!, { x: 0.5, y: 0.5 }); // { x: 1, y: 1 }
 */
export function homography(from: readonly Pt[], to: readonly Pt[]): Homography | null {
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(a, b);
  return h ? [...h, 1] : null;
}

/**
 * Maps one point.
 *
 * @example
 * apply([1, 0, 5, 0, 1, 0, 0, 0, 1], { x: 1, y: 2 }); // { x: 6, y: 2 }
 */
export function apply(h: Homography, p: Pt): Pt {
  const w = h[6]! * p.x + h[7]! * p.y + h[8]!;
  return { x: (h[0]! * p.x + h[1]! * p.y + h[2]!) / w, y: (h[3]! * p.x + h[4]! * p.y + h[5]!) / w };
}
