import { describe, expect, it } from 'vitest';
import { chainRows, components, findGrid, fitLine, pitchAndPhase, type Blob } from './grid';
import type { Gray } from './raster';

const blob = (x: number, y: number, w = 14, h = 24): Blob => ({
  x0: x - w / 2,
  x1: x + w / 2,
  y0: y - h / 2,
  y1: y + h / 2,
  n: w * h,
});

describe('fitLine', () => {
  it('fits a straight line and drops a point far from it', () => {
    const l = fitLine(
      [
        [0, 1],
        [1, 3],
        [2, 5],
        [3, 7],
        [4, 60],
      ],
      2,
    )!;
    expect(l.a).toBeCloseTo(1, 6);
    expect(l.b).toBeCloseTo(2, 6);
  });
  it('has no line through points at one x', () => {
    expect(
      fitLine([
        [2, 1],
        [2, 5],
      ]),
    ).toBeNull();
  });
});

describe('components', () => {
  it('joins diagonal neighbours and keeps separate runs apart', () => {
    // 1 0 0 1
    // 0 1 0 1
    const ink = new Uint8Array([1, 0, 0, 1, 0, 1, 0, 1]);
    const c = components(ink, 4, 2).sort((a, b) => a.x0 - b.x0);
    expect(c).toEqual([
      { x0: 0, y0: 0, x1: 2, y1: 2, n: 2 },
      { x0: 3, y0: 0, x1: 4, y1: 2, n: 2 },
    ]);
  });
});

describe('chainRows', () => {
  it('keeps a tilted row together and two rows apart', () => {
    const rows = [0, 1].map((r) =>
      Array.from({ length: 30 }, (_, i) => blob(20 + i * 25.4, 40 + r * 46 + i * 0.9)),
    );
    const chained = chainRows([...rows[1]!, ...rows[0]!], 80);
    expect(chained.map((c) => c.length).sort()).toEqual([30, 30]);
  });
});

describe('pitchAndPhase', () => {
  it('finds the pitch and phase through lost, merged and split glyphs', () => {
    const xs: number[] = [];
    for (let i = 0; i < 44; i++) {
      const x = 31.2 + i * 25.9;
      if (i === 5 || i === 30) continue; // lost
      if (i === 12)
        xs.push(x + 12.9); // two glyphs run together: one blob between them
      else if (i === 13) continue;
      else if (i === 20)
        xs.push(x - 4, x + 4); // one glyph split in two
      else xs.push(x + ((i * 7) % 5) * 0.3 - 0.6);
    }
    const r = pitchAndPhase(xs, 25.4);
    expect(r.pitch).toBeCloseTo(25.9, 1);
    const off = (((r.phase - 31.2) % r.pitch) + r.pitch) % r.pitch;
    expect(Math.min(off, r.pitch - off)).toBeLessThan(1);
  });
});

/** A band with `lines` rows of `count` dark boxes at a pitch, tilted by `slope`. */
function band(
  lines: number,
  count: number,
  pitch: number,
  slope: number,
  drop: number[] = [],
): Gray {
  const width = Math.round(count * pitch + 80);
  const height = 60 + lines * 46;
  const data = new Uint8Array(width * height).fill(235);
  for (let r = 0; r < lines; r++) {
    for (let i = 0; i < count; i++) {
      if (r === 0 && drop.includes(i)) continue;
      const cx = 40 + (i + 0.5) * pitch;
      const cy = 40 + r * 46 + slope * cx;
      for (let y = Math.round(cy - 12); y < Math.round(cy + 12); y++)
        for (let x = Math.round(cx - 7); x < Math.round(cx + 7); x++) data[y * width + x] = 20;
    }
  }
  return { width, height, data };
}

describe('findGrid', () => {
  it('measures pitch, start and tilt of every row', () => {
    const rows = findGrid(band(3, 30, 26, 0.02), 3, 30, 25.4)!;
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.cells.b).toBeCloseTo(26, 1);
      expect(r.cells.a).toBeCloseTo(40 + 13, 0);
      expect(r.bottom.b).toBeCloseTo(0.02, 2);
    }
  });
  it('takes the start of a row that lost its first glyphs from the complete rows', () => {
    const rows = findGrid(band(2, 44, 25.4, 0, [0, 1]), 2, 44, 25.4)!;
    expect(rows[0]!.cells.a).toBeCloseTo(rows[1]!.cells.a, 0);
  });
  it('finds nothing in an empty band', () => {
    const g: Gray = { width: 300, height: 100, data: new Uint8Array(30000).fill(235) };
    expect(findGrid(g, 2, 44, 25.4)).toBeNull();
  });
});
