import { describe, expect, it } from 'vitest';
import type { Rgb } from './page';
import { stampImage, stampReads } from './stamp';

/**
 * A card's colour page (428 × 270 at 5 px/mm), tinted paper lit from the left (full light to
 * 45%), with four bands of 40 rows: black print, the document's blue, a portrait's orange and
 * skin, and a red stamp at 85% over the paper (the synthetic forgeries' `rgba(205, 20, 20, .85)`).
 */
function page(): Rgb {
  const width = 428;
  const height = 270;
  const rgb = new Uint8Array(width * height * 3);
  const paper: [number, number, number] = [240, 236, 222];
  const stamp = paper.map((p, c) => 0.85 * [205, 20, 20][c]! + 0.15 * p);
  const bands: (readonly number[])[] = [paper, [25, 25, 30], [53, 80, 122], [225, 120, 60]];
  for (let y = 0; y < height; y++) {
    const colour = y >= 200 && y < 240 ? stamp : (bands[Math.floor(y / 40)] ?? [230, 170, 140]);
    for (let x = 0; x < width; x++) {
      const light = 1 - (0.55 * x) / width;
      for (let c = 0; c < 3; c++) rgb[(y * width + x) * 3 + c] = Math.round(colour[c]! * light);
    }
  }
  return { width, height, rgb };
}

describe('the stamp ink', () => {
  it('keeps a red stamp, dark at every light, and drops print, blue, orange, skin and paper', () => {
    const { image, inkPixels } = stampImage(page());
    // A card's page is read at its size, in a white margin of 15% of its height.
    const m = Math.round(270 * 0.15);
    expect([image.width, image.height]).toEqual([428 + 2 * m, 270 + 2 * m]);
    const at = (x: number, y: number) => image.data[(y + m) * image.width + x + m]!;
    for (const x of [0, 200, 427]) {
      expect(at(x, 220)).toBe(0);
      for (const y of [20, 60, 100, 140, 180, 250]) expect(at(x, y)).toBe(255);
    }
    expect(image.data[0]).toBe(255);
    expect(inkPixels).toBe(428 * 40);
  });
  it('shrinks a passport page by a whole factor to about 250 rows', () => {
    const { image } = stampImage({ width: 625, height: 440, rgb: new Uint8Array(625 * 440 * 3) });
    const m = Math.round(220 * 0.15);
    expect([image.width, image.height]).toEqual([312 + 2 * m, 220 + 2 * m]);
  });
  it('reads a stamp at three quarters, then at full size; a page without one not at all', () => {
    const stamped = page();
    expect(stampReads(stamped).map((g) => g.height)).toEqual([264, 352]);
    const plain = { ...stamped, rgb: stamped.rgb.slice() };
    // The stamp band painted over with the paper: no ink left.
    for (let i = 200 * 428 * 3; i < 240 * 428 * 3; i += 3) plain.rgb.set([240, 236, 222], i);
    expect(stampReads(plain)).toEqual([]);
  });
});
