import { describe, expect, it } from 'vitest';
import type { Gray } from './gray';
import { toGray } from './gray';
import { DOCUMENT_MM, guideRect, scaleRect } from './guide';
import { fitInGuide } from './inGuide';
import { laplacianVariance } from './sharpness';
import { frameDifference, nextSteadiness } from './steadiness';

/** A grey image drawn by a function of the pixel. */
function draw(width: number, height: number, at: (x: number, y: number) => number): Gray {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = at(x, y);
  return { width, height, data };
}

/** A small mean filter, as a camera out of focus would blur. */
function boxBlur(g: Gray, r: number): Gray {
  return draw(g.width, g.height, (x, y) => {
    let s = 0;
    let n = 0;
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= g.width || yy >= g.height) continue;
        s += g.data[yy * g.width + xx]!;
        n++;
      }
    }
    return Math.round(s / n);
  });
}

// Printed lines of "text": dark strokes on a light page, like the zone's characters.
const text = (x: number, y: number) => (y % 8 < 3 && x % 6 < 4 ? 40 : 220);

/** A light page of the guide's ratio, `size` times the guide, centred on a dark table. */
function documentOnTable(size: number, opts: { tilt?: number; dx?: number } = {}): Gray {
  const frame = { width: 240, height: 180 };
  const g = guideRect('passport', frame);
  const cx = g.x + g.width / 2 + (opts.dx ?? 0);
  const cy = g.y + g.height / 2;
  const hw = (g.width * size) / 2;
  const hh = (g.height * size) / 2;
  const tilt = opts.tilt ?? 0;
  return draw(frame.width, frame.height, (x, y) => {
    // A small rotation: the page's own coordinates of this pixel.
    const u = (x - cx) * Math.cos(tilt) + (y - cy) * Math.sin(tilt);
    const v = -(x - cx) * Math.sin(tilt) + (y - cy) * Math.cos(tilt);
    const inside = Math.abs(u) <= hw && Math.abs(v) <= hh;
    const grain = (x * 7 + y * 13) % 9;
    return inside ? (Math.abs(v) > hh * 0.6 ? text(x, y) : 225) : 70 + grain;
  });
}

const guideOn = (g: Gray) => guideRect('passport', g);

describe('guideRect', () => {
  it('keeps the document ratio, centred, within 84% of the frame', () => {
    const r = guideRect('passport', { width: 960, height: 720 });
    expect(r.width / r.height).toBeCloseTo(125 / 88, 6);
    expect(r.width).toBeCloseTo(960 * 0.84, 6);
    expect(r.x + r.width / 2).toBeCloseTo(480, 6);
    expect(r.y + r.height / 2).toBeCloseTo(360, 6);
  });

  it('ID-1 cards are wider than the passport page, and a portrait frame limits the width', () => {
    const id = guideRect('id', { width: 480, height: 640 });
    expect(id.width / id.height).toBeCloseTo(85.6 / 54, 6);
    expect(id.width).toBeCloseTo(480 * 0.84, 6);
    expect(id.height).toBeLessThan(640 * 0.84);
    expect(DOCUMENT_MM.dl).toEqual(DOCUMENT_MM.id);
  });

  it('a very wide frame limits the height instead', () => {
    const r = guideRect('id', { width: 2000, height: 400 });
    expect(r.height).toBeCloseTo(400 * 0.84, 6);
    expect(r.width).toBeCloseTo(r.height * (85.6 / 54), 6);
  });

  it('scales to the small copy', () => {
    expect(scaleRect({ x: 10, y: 20, width: 100, height: 50 }, 0.25)).toEqual({
      x: 2.5,
      y: 5,
      width: 25,
      height: 12.5,
    });
  });
});

describe('toGray', () => {
  it('weights the channels as Rec. 601', () => {
    const g = toGray(new Uint8ClampedArray([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]), 3, 1);
    expect([...g.data]).toEqual([76, 150, 29]);
  });
});

describe('laplacianVariance', () => {
  it('is zero on a flat image and falls as the picture blurs', () => {
    const sharp = draw(120, 80, text);
    expect(laplacianVariance(draw(50, 50, () => 128))).toBe(0);
    const a = laplacianVariance(sharp);
    const b = laplacianVariance(boxBlur(sharp, 1));
    const c = laplacianVariance(boxBlur(sharp, 2));
    expect(a).toBeGreaterThan(b);
    expect(b).toBeGreaterThan(c);
    expect(a).toBeGreaterThan(b * 3);
  });

  it('measures only the region asked for', () => {
    // Text on the left half only.
    const half = draw(100, 60, (x, y) => (x < 50 ? text(x, y) : 200));
    expect(laplacianVariance(half, { x: 55, y: 0, width: 45, height: 60 })).toBe(0);
    expect(laplacianVariance(half, { x: 0, y: 0, width: 45, height: 60 })).toBeGreaterThan(1000);
  });
});

describe('steadiness', () => {
  it('measures the change between two frames', () => {
    const a = draw(8, 8, () => 100);
    const b = draw(8, 8, (x) => (x < 4 ? 100 : 110));
    expect(frameDifference(a, a)).toBe(0);
    expect(frameDifference(a, b)).toBe(5);
    expect(
      frameDifference(
        a,
        draw(4, 4, () => 100),
      ),
    ).toBe(Infinity);
  });

  it('keeps the moment the picture became still, and resets on movement', () => {
    let s = nextSteadiness({ since: null }, 2, 1000);
    expect(s).toEqual({ since: 1000 });
    s = nextSteadiness(s, 1, 1400);
    expect(s).toEqual({ since: 1000 });
    s = nextSteadiness(s, 20, 1500);
    expect(s).toEqual({ since: null });
    expect(nextSteadiness(s, Infinity, 1600)).toEqual({ since: null });
    expect(nextSteadiness(s, Number.NaN, 1600)).toEqual({ since: null });
  });
});

describe('fitInGuide', () => {
  it('finds all four edges of a document that fills the guide', () => {
    const g = documentOnTable(0.95);
    expect(fitInGuide(g, guideOn(g))).toEqual({
      top: true,
      bottom: true,
      left: true,
      right: true,
      found: 4,
    });
  });

  it('copes with a slightly tilted document', () => {
    const g = documentOnTable(0.9, { tilt: (4 * Math.PI) / 180 });
    expect(fitInGuide(g, guideOn(g)).found).toBe(4);
  });

  it('a document far too small, or an empty table, is not in the guide', () => {
    const small = documentOnTable(0.5);
    expect(fitInGuide(small, guideOn(small)).found).toBe(0);
    const table = draw(240, 180, (x, y) => 70 + ((x * 7 + y * 13) % 9));
    expect(fitInGuide(table, guideOn(table)).found).toBe(0);
  });

  it('a document pushed to one side misses the far edge', () => {
    const g = documentOnTable(0.9, { dx: -40 });
    const fit = fitInGuide(g, guideOn(g));
    expect(fit.left).toBe(false);
    expect(fit.right).toBe(false);
    expect(fit.top && fit.bottom).toBe(true);
  });

  it('smooth light (a face, a lamp) makes no edge', () => {
    const glow = draw(240, 180, (x, y) => Math.max(0, 230 - Math.hypot(x - 120, y - 90) * 1.6));
    expect(fitInGuide(glow, guideOn(glow)).found).toBe(0);
  });
});
