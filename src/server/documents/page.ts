/**
 * The document in a photo, straightened: its outline (`locate.ts`), the page mapped to its
 * physical size at 10 px/mm in grey, and a colour copy at 5 px/mm for the checks that need colour
 * (`original.ts`). Two page shapes exist: an ID-1 card (85.6 × 54 mm: TD1 cards, licences) and
 * a page of the passport's proportions (TD3 125 × 88 mm; TD2 cards and MRV-B visas, 105 × 74 mm,
 * have the same ratio and are straightened at the TD3 size, their zone then read at a larger pitch).
 */
import { homography, type Homography, type Pt } from './homography';
import { DOC_MM, formatByAspect, locateDocument, type Quad } from './locate';
import { boxMean, crop, warpGray, type Gray } from './raster';
import { apply } from './homography';

/** Pixels a millimetre of the straightened page: zone characters about 30 px high. */
export const PAGE_PX_PER_MM = 10;
/** Pixels a millimetre of the colour copy. */
export const COLOUR_PX_PER_MM = 5;

export type PageShape = 'TD1' | 'TD3';

export interface Rgb {
  width: number;
  height: number;
  /** Packed RGB, row by row. */
  rgb: Uint8Array;
}

export interface StraightPage {
  shape: PageShape;
  quad: Quad;
  /** Grey, PAGE_PX_PER_MM at the shape's size. */
  gray: Gray;
}

function rectCorners(w: number, h: number): Pt[] {
  return [
    { x: 0, y: 0 },
    { x: w, y: 0 },
    { x: w, y: h },
    { x: 0, y: h },
  ];
}

function toPhotoOf(quad: Quad, w: number, h: number): Homography | null {
  return homography(rectCorners(w, h), quad.corners);
}

/**
 * The page of an outline straightened as `shape` (by default the shape its aspect ratio says).
 *
 * @example
 * const p = straightenPage(gray, locateDocument(gray)!);
 */
export function straightenPage(gray: Gray, quad: Quad, shape?: PageShape): StraightPage | null {
  const s = shape ?? formatByAspect(quad.aspect);
  const mm = DOC_MM[s];
  const w = Math.round(mm.w * PAGE_PX_PER_MM);
  const h = Math.round(mm.h * PAGE_PX_PER_MM);
  const toPhoto = toPhotoOf(quad, w, h);
  if (!toPhoto) return null;
  return { shape: s, quad, gray: warpGray(gray, toPhoto, w, h) };
}

/**
 * The page in colour at COLOUR_PX_PER_MM (bilinear), for the colour, contrast and moiré checks.
 *
 * @example
 * const colour = colourPage(photo, page);
 */
export function colourPage(photo: Rgb, page: StraightPage): Rgb | null {
  const mm = DOC_MM[page.shape];
  const w = Math.round(mm.w * COLOUR_PX_PER_MM);
  const h = Math.round(mm.h * COLOUR_PX_PER_MM);
  const toPhoto = toPhotoOf(page.quad, w, h);
  if (!toPhoto) return null;
  const out = new Uint8Array(w * h * 3);
  const { width: sw, height: sh, rgb: s } = photo;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = apply(toPhoto, { x: x + 0.5, y: y + 0.5 });
      const fx = p.x - 0.5;
      const fy = p.y - 0.5;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const o = (y * w + x) * 3;
      if (x0 < 0 || y0 < 0 || x0 + 1 >= sw || y0 + 1 >= sh) {
        out[o] = out[o + 1] = out[o + 2] = 255;
        continue;
      }
      const ax = fx - x0;
      const ay = fy - y0;
      const i = (y0 * sw + x0) * 3;
      const j = i + sw * 3;
      for (let c = 0; c < 3; c++) {
        const top = s[i + c]! * (1 - ax) + s[i + 3 + c]! * ax;
        const bottom = s[j + c]! * (1 - ax) + s[j + 3 + c]! * ax;
        out[o + c] = Math.round(top * (1 - ay) + bottom * ay);
      }
    }
  }
  return { width: w, height: h, rgb: out };
}

/**
 * Divides out the local background so uneven light leaves black text on an even white; a small
 * `radius` (px) also takes out a printed background pattern coarser than it.
 *
 * @example
 * const even = flatten(band);
 * const fields = flatten(vizRegion(page.gray, true), 3 * PAGE_PX_PER_MM);
 */
export function flatten(g: Gray, radius = Math.round(g.height / 3)): Gray {
  const bg = boxMean(g, radius);
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) {
    const v = (g.data[i]! / Math.max(1, bg[i]!)) * 235;
    out[i] = v > 255 ? 255 : v;
  }
  return { width: g.width, height: g.height, data: out };
}

/** Height of the zone's band from the bottom edge (ICAO zone plus margin), by page shape. */
export const BAND_MM: Record<PageShape, number> = { TD3: 24, TD1: 21 };

/**
 * The bottom band of a page where the zone is, light evened.
 *
 * @example
 * const band = zoneBand(page);
 */
export function zoneBand(page: StraightPage): Gray {
  const g = page.gray;
  const bandH = BAND_MM[page.shape] * PAGE_PX_PER_MM;
  return flatten(crop(g, 0, g.height - bandH, g.width, bandH));
}

/**
 * The located and straightened page of a photo, or null without an outline.
 *
 * @example
 * const p = findPage(toGray(decodeImage(jpeg)));
 */
export function findPage(gray: Gray, shape?: PageShape): StraightPage | null {
  const quad = locateDocument(gray);
  return quad ? straightenPage(gray, quad, shape) : null;
}
