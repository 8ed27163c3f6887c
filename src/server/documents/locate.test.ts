import { describe, expect, it } from 'vitest';
import { apply, homography, type Pt } from './homography';
import { edgePoints, fitEdge, formatByAspect, intersect, locateDocument } from './locate';
import type { Gray } from './raster';

describe('fitEdge', () => {
  it('fits a steep line (total least squares) and ignores a far point', () => {
    const pts: Pt[] = [0, 1, 2, 3, 4, 5].map((t) => ({ x: 10 + 0.1 * t, y: t * 10 }));
    pts.push({ x: 40, y: 25 });
    const e = fitEdge(pts, 1)!;
    expect(Math.abs(e.d.x / e.d.y)).toBeCloseTo(0.01, 4);
    expect(e.p.x - 0.01 * e.p.y).toBeCloseTo(10, 4);
  });
});

describe('intersect', () => {
  it('meets two lines and refuses parallel ones', () => {
    const p = intersect(
      { p: { x: 0, y: 2 }, d: { x: 1, y: 0 } },
      { p: { x: 3, y: 0 }, d: { x: 0, y: 1 } },
    );
    expect(p!.x).toBeCloseTo(3);
    expect(p!.y).toBeCloseTo(2);
    expect(
      intersect({ p: { x: 0, y: 0 }, d: { x: 1, y: 0 } }, { p: { x: 0, y: 1 }, d: { x: 1, y: 0 } }),
    ).toBeNull();
  });
});

/**
 * A bright quad on a dark table, anti-aliased by 4×4 supersampling; `falloff` darkens the page
 * towards the bottom right (the light's fall-off of a heavy photo: 0 none, 1 black there).
 */
function scene(corners: Pt[], w = 640, h = 480, falloff = 0): Gray {
  const toDoc = homography(corners, [
    { x: 0, y: 0 },
    { x: 1, y: 0 },
    { x: 1, y: 1 },
    { x: 0, y: 1 },
  ])!;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let inside = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const q = apply(toDoc, { x: x + (sx + 0.5) / 4, y: y + (sy + 0.5) / 4 });
          if (q.x >= 0 && q.x <= 1 && q.y >= 0 && q.y <= 1) inside++;
        }
      }
      const t = (x / w + y / h) / 2;
      data[y * w + x] = Math.round(60 + ((170 * inside) / 16) * (1 - falloff * t * t));
    }
  }
  return { width: w, height: h, data };
}

const QUAD: Pt[] = [
  { x: 92.3, y: 71.6 },
  { x: 551.2, y: 88.9 },
  { x: 538.7, y: 402.4 },
  { x: 80.1, y: 381.5 },
];

describe('edgePoints', () => {
  it('puts the edge of a step within a tenth of a pixel', () => {
    const g = scene(QUAD);
    const inward = { x: 0.0377, y: 0.9993 };
    const pts = edgePoints(g, QUAD[0]!, QUAD[1]!, inward, 6, 20);
    expect(pts.length).toBeGreaterThan(15);
    const e = fitEdge(pts, 1)!;
    // Distance of the true corners from the fitted line.
    for (const c of [QUAD[0]!, QUAD[1]!]) {
      expect(Math.abs((c.x - e.p.x) * -e.d.y + (c.y - e.p.y) * e.d.x)).toBeLessThan(0.15);
    }
  });
});

describe('locateDocument', () => {
  it('finds the corners of a rotated, tilted page to a fraction of a pixel', () => {
    const q = locateDocument(scene(QUAD))!;
    q.corners.forEach((c, i) => {
      expect(Math.hypot(c.x - QUAD[i]!.x, c.y - QUAD[i]!.y)).toBeLessThan(0.5);
    });
    expect(formatByAspect(q.aspect)).toBe('TD3');
  });
  it('keeps a corner darkened by the light at the low cut, which Otsu loses', () => {
    const g = scene(QUAD, 640, 480, 1);
    const miss = (q: ReturnType<typeof locateDocument>) =>
      Math.max(...q!.corners.map((c, i) => Math.hypot(c.x - QUAD[i]!.x, c.y - QUAD[i]!.y)));
    expect(miss(locateDocument(g))).toBeGreaterThan(5);
    expect(miss(locateDocument(g, 'low'))).toBeLessThan(1);
  });
  it('finds nothing in an even photo', () => {
    expect(
      locateDocument({ width: 64, height: 48, data: new Uint8Array(64 * 48).fill(90) }),
    ).toBeNull();
  });
});
