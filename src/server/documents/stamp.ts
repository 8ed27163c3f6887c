/**
 * The stamp ink of a page, for the `specimen` check: a VOID, CANCELLED or SPECIMEN stamp is inked
 * over the document's print, by convention in red, a colour none of the document's own text is
 * printed in (black, dark blue). On the grey page the stamp's letters merge with the print and the
 * portrait under them and OCR reads pieces (`OID`, `01D`); the pixels whose red stands far above
 * their green and blue, alone on white, are the stamp's letters and little else.
 */
import type { Rgb } from './page';
import { scaled, type Gray } from './raster';

/**
 * Red's share above the larger of green and blue, `(R − max(G, B)) / R`: at `INK_FROM` a pixel
 * starts to count as stamp ink, at `INK_FULL` it is black. A red stamp at 85% over the paper
 * measures about 0.72 at every light (the ratio does not change with brightness); skin, the
 * orange of a portrait's clothes and the document's tinted paper stay below 0.6.
 */
export const STAMP_INK = { from: 0.6, full: 0.7, minRed: 90 } as const;

/** Rows of the stamp image: about the large print's (evidence.ts), where a stamp's word reads. */
const STAMP_ROWS = 250;

/** White margin around the image, a share of its height: tesseract lost a word near the edge. */
const MARGIN = 0.15;

/**
 * Less stamp ink than this share of the image is no stamp, and nothing is read: the synthetic
 * set's genuine pages show 0.2–0.5% (red in the portrait: a flag's stripes), its stamps 1.2–2.5%
 * (a 9 mm VOID on a card, a passport's 14 mm one).
 */
export const MIN_STAMP_INK = 0.008;

/**
 * The scales the stamp image is read at, in turn while its word is not seen: tesseract read the
 * synthetic stamps' VOID at three quarters in 25 of 26 (`voib` once), at full size in 23 (`olDb`,
 * `YpVorP`, nothing), and one of the two in all 26.
 */
export const STAMP_SCALES = [0.75, 1] as const;

/** How dark (0 black – 255 white) a pixel is as stamp ink. */
function inkLevel(r: number, g: number, b: number): number {
  if (r < STAMP_INK.minRed) return 255;
  const share = (r - Math.max(g, b)) / r;
  const t = (share - STAMP_INK.from) / (STAMP_INK.full - STAMP_INK.from);
  return Math.round(255 * (1 - Math.min(1, Math.max(0, t))));
}

/**
 * The page's stamp ink, dark on white: the colour page (5 px/mm) shrunk by a whole factor to about
 * 250 rows, in a white margin. `inkPixels` counts the pixels at least half ink (nothing to read
 * when there are too few).
 *
 * @example
 * const { image, inkPixels } = stampImage(page.colour);
 */
export function stampImage(colour: Rgb): { image: Gray; inkPixels: number } {
  const f = Math.max(1, Math.round(colour.height / STAMP_ROWS));
  const w = Math.floor(colour.width / f);
  const h = Math.floor(colour.height / f);
  const m = Math.round(h * MARGIN);
  const W = w + 2 * m;
  const data = new Uint8Array(W * (h + 2 * m)).fill(255);
  let inkPixels = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) {
        for (let dx = 0; dx < f; dx++) {
          const i = ((y * f + dy) * colour.width + x * f + dx) * 3;
          s += inkLevel(colour.rgb[i]!, colour.rgb[i + 1]!, colour.rgb[i + 2]!);
        }
      }
      const v = Math.round(s / (f * f));
      if (v < 128) inkPixels++;
      data[(y + m) * W + x + m] = v;
    }
  }
  return { image: { width: W, height: h + 2 * m, data }, inkPixels };
}

/**
 * The stamp images to read, one per scale of `STAMP_SCALES`; none when the page shows too little
 * stamp ink.
 *
 * @example
 * for (const image of stampReads(page.colour)) texts.push(await read(image));
 */
export function stampReads(colour: Rgb): Gray[] {
  const { image, inkPixels } = stampImage(colour);
  if (inkPixels < MIN_STAMP_INK * image.width * image.height) return [];
  return STAMP_SCALES.map((f) => (f === 1 ? image : scaled(image, f)));
}
