import { describe, expect, it } from 'vitest';
import { bigPrintImage, vizImage, vizRegion } from './evidence';
import type { Gray } from './raster';

/**
 * A TD3 page (1250 × 880 px at 10 px/mm) lit from the left: the paper goes from 240 to 110, and
 * blocks of "ink" at 55% of the paper under them stand where the printed values are. Returns the
 * page and whether each pixel of the fields' region is ink.
 */
function litPage(): { page: Gray; ink: (x: number, y: number) => boolean } {
  const width = 1250;
  const height = 880;
  const isInk = (x: number, y: number) => (x % 120 < 60 && y % 70 < 25 ? true : false);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const paper = 240 - (130 * x) / width;
      data[y * width + x] = Math.round(isInk(x, y) ? paper * 0.55 : paper);
    }
  }
  // The region's pixel (x, y) is the page's (x0 + x, y0 + y), as vizRegion crops it.
  const x0 = Math.round(width * 0.27);
  const y0 = Math.round(height * 0.08);
  return { page: { width, height, data }, ink: (x, y) => isInk(x0 + x, y0 + y) };
}

/** The darkest paper and the lightest ink of a region (ink must be darker for one threshold). */
function separation(g: Gray, ink: (x: number, y: number) => boolean) {
  let darkestPaper = 255;
  let lightestInk = 0;
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      const v = g.data[y * g.width + x]!;
      if (ink(x, y)) lightestInk = Math.max(lightestInk, v);
      else darkestPaper = Math.min(darkestPaper, v);
    }
  }
  return { darkestPaper, lightestInk };
}

describe('vizImage', () => {
  it('evens the light so that one threshold tells every value from the paper', () => {
    const { page, ink } = litPage();
    // As cropped, the dim paper is darker than the ink on the lit side: no one threshold works.
    const plain = separation(vizRegion(page, true), ink);
    expect(plain.darkestPaper).toBeLessThan(plain.lightestInk);
    const even = vizImage(page, true);
    expect([even.width, even.height]).toEqual([
      vizRegion(page, true).width,
      vizRegion(page, true).height,
    ]);
    const s = separation(even, ink);
    expect(s.lightestInk).toBeLessThan(s.darkestPaper);
    expect(s.darkestPaper - s.lightestInk).toBeGreaterThan(20);
  });
});

describe('the large print image', () => {
  /** A page of `width` × `height` px with a dark bar `barPx` rows tall (a stamp's letters). */
  const page = (width: number, height: number, barPx: number): Gray => {
    const data = new Uint8Array(width * height).fill(230);
    for (let y = 100; y < 100 + barPx; y++) data.fill(40, y * width + 100, y * width + 400);
    return { width, height, data };
  };
  const inkRows = (g: Gray) => {
    let n = 0;
    for (let y = 0; y < g.height; y++)
      if (g.data[y * g.width + Math.floor(g.width / 8) + 10]! < 135) n++;
    return n;
  };

  it("keeps an ID card's 9 mm stamp large enough for OCR (the card is shrunk less)", () => {
    // An ID card page is 856 × 540 px at 10 px/mm: its stamp's letters stand 90 px tall.
    const card = bigPrintImage(page(856, 540, 90));
    expect(card.width).toBe(428);
    expect(inkRows(card)).toBeGreaterThanOrEqual(40);
  });
  it('shrinks a passport page by four, its mean kept', () => {
    const g = bigPrintImage(page(1250, 880, 0));
    expect([g.width, g.height]).toEqual([312, 220]);
    expect(g.data[0]).toBe(230);
  });
});
