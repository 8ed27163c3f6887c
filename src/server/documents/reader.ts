/**
 * The document reader: finds and straightens the document in a photo, cuts out the band where
 * the machine-readable zone sits, evens its light, reads it with tesseract, corrects the read by
 * position (`src/core/mrz`) and checks it. Also cuts out the document's face.
 */
import { PNG } from 'pngjs';
import { TD1, TD3, classesOf, correctMrz, parseMrz, type MrzResult } from '../../core/mrz';
import type { FaceAnalyzer } from '../analysis/face-analyzer';
import { decodeImage } from '../analysis/image';
import { homography, type Pt } from './homography';
import jpeg from 'jpeg-js';
import { DOC_MM, formatByAspect, locateDocument } from './locate';
import { readGlyphs, type Templates } from './glyphs';
import { createMrzOcr, type MrzOcr } from './ocr';
import { loadTemplates } from './templates';
import { boxMean, crop, toGray, warpGray, type Gray } from './raster';

/** Pixels a millimetre of the straightened MRZ band: characters about 30 px high for tesseract. */
const BAND_PX_PER_MM = 10;
/** Height of the MRZ band from the bottom edge (ICAO zone plus margin). */
const BAND_MM = { TD3: 24, TD1: 21 } as const;

export interface ReadOutcome {
  /** `read`: the check digits hold; otherwise why not. */
  status: 'read' | 'unreadable' | 'checks_failed' | 'expired';
  mrz: MrzResult | null;
  /** The lines tesseract gave, before correction. */
  raw: string[];
  /** `glyphs`: OCR-B templates cell by cell; `tesseract`: the fallback. */
  method: 'glyphs' | 'tesseract' | 'none';
  /** How sure the glyph read was (its weakest cell). */
  scores: { minScore: number; minMargin: number } | null;
  /** Straightened document (JPEG), for the face crop. */
  document: { jpeg: Uint8Array; width: number; height: number } | null;
  ms: number;
}

export interface DocumentReader {
  read(image: Uint8Array, today: number): Promise<ReadOutcome>;
  /** The face on a straightened document page, as a JPEG, or null. */
  face(document: Uint8Array): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

function pngOf(g: Gray): Uint8Array {
  const png = new PNG({
    width: g.width,
    height: g.height,
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
  });
  png.data = Buffer.from(g.data);
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
}

function jpegOfGray(g: Gray): Uint8Array {
  const data = new Uint8Array(g.width * g.height * 4);
  for (let i = 0; i < g.width * g.height; i++) {
    data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = g.data[i]!;
    data[i * 4 + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ data, width: g.width, height: g.height }, 90).data);
}

/** Divides out the local background so uneven light leaves black text on an even white. */
function flatten(g: Gray): Gray {
  const bg = boxMean(g, Math.round(g.height / 3));
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) {
    const v = (g.data[i]! / Math.max(1, bg[i]!)) * 235;
    out[i] = v > 255 ? 255 : v;
  }
  return { width: g.width, height: g.height, data: out };
}

function rectCorners(w: number, h: number): Pt[] {
  return [
    { x: 0, y: 0 },
    { x: w, y: 0 },
    { x: w, y: h },
    { x: 0, y: h },
  ];
}

export interface Straightened {
  format: 'TD1' | 'TD3';
  page: Gray;
  /** The bottom band of the page where the zone is, light evened. */
  band: Gray;
}

/**
 * The document of a photo, straightened to `BAND_PX_PER_MM`, and its MRZ band; null when no
 * document outline is found.
 *
 * @example
 * const s = straighten(toGray(decodeImage(jpegBytes)));
 */
export function straighten(gray: Gray): Straightened | null {
  const quad = locateDocument(gray);
  if (!quad) return null;
  const format = formatByAspect(quad.aspect);
  const mm = DOC_MM[format];
  const w = Math.round(mm.w * BAND_PX_PER_MM);
  const h = Math.round(mm.h * BAND_PX_PER_MM);
  const toPhoto = homography(rectCorners(w, h), quad.corners);
  if (!toPhoto) return null;
  const page = warpGray(gray, toPhoto, w, h);
  const bandH = BAND_MM[format] * BAND_PX_PER_MM;
  return { format, page, band: flatten(crop(page, 0, h - bandH, w, bandH)) };
}

/**
 * Glyph reads weaker than these are not trusted (measured on the test set: correct cells score
 * 0.7–0.95; look-alikes in unchecked positions differ by more than 0.01 when read right).
 */
export const GLYPH_MIN_SCORE = 0.5;
export const GLYPH_MIN_MARGIN = 0.01;

/**
 * A reader with its own warm OCR worker (or the one given).
 *
 * @example
 * const reader = createDocumentReader();
 * const r = await reader.read(jpegBytes, Date.now());
 * if (r.status === 'read') console.log(r.mrz?.data.documentNumber);
 */
export function createDocumentReader(
  opts: { ocr?: MrzOcr; analyzer?: () => Promise<FaceAnalyzer>; templates?: Templates } = {},
): DocumentReader {
  const ocr = opts.ocr ?? createMrzOcr();
  const templates = opts.templates ?? loadTemplates();

  async function tryBand(g: Gray, today: number) {
    const lines = await ocr.read(pngOf(g));
    const raw = lines.map((l) => l.text);
    const corrected = correctMrz(raw);
    const mrz = corrected ? parseMrz(corrected.lines, today) : null;
    return { raw, mrz };
  }

  return {
    async read(image, today) {
      const t0 = performance.now();
      let confident = false;
      let scores: ReadOutcome['scores'] = null;
      const gray = toGray(decodeImage(image));
      let raw: string[] = [];
      let mrz: MrzResult | null = null;
      let document: ReadOutcome['document'] = null;
      let method: ReadOutcome['method'] = 'none';
      const flat = straighten(gray);
      if (flat) {
        document = {
          jpeg: jpegOfGray(flat.page),
          width: flat.page.width,
          height: flat.page.height,
        };
        const layout = flat.format === 'TD3' ? TD3 : TD1;
        const glyphs = readGlyphs(flat.band, layout, templates);
        if (glyphs) {
          raw = glyphs.lines;
          mrz = parseMrz(glyphs.lines, today);
          method = 'glyphs';
          // No check digit covers names, codes and sex: there a near tie is not trusted.
          const classes = classesOf(layout);
          const unchecked = glyphs.margins.filter(
            (_, i) => classes[i] === 'alpha' || classes[i] === 'sex',
          );
          const weakest = Math.min(...unchecked);
          confident = glyphs.minScore >= GLYPH_MIN_SCORE && weakest >= GLYPH_MIN_MARGIN;
          scores = { minScore: glyphs.minScore, minMargin: weakest };
        }
        if (!mrz?.valid) {
          const t = await tryBand(flat.band, today);
          if (t.mrz && (!mrz || t.mrz.valid)) {
            ({ raw, mrz } = t);
            method = 'tesseract';
            confident = true;
          }
        }
      }
      if (!mrz?.valid) {
        // No outline found, or the page read badly: the lower part of the photo as it is.
        const lower = crop(gray, 0, gray.height * 0.45, gray.width, gray.height * 0.55);
        const second = await tryBand(flatten(lower), today);
        if (second.mrz && (!mrz || second.mrz.valid || (!mrz.checksOk && second.mrz.checksOk))) {
          ({ raw, mrz } = second);
          method = 'tesseract';
          confident = true;
        }
      }
      const status: ReadOutcome['status'] =
        !mrz || !confident
          ? 'unreadable'
          : !mrz.valid
            ? mrz.checksOk
              ? 'unreadable'
              : 'checks_failed'
            : mrz.expired
              ? 'expired'
              : 'read';
      return { status, mrz, raw, method, scores, document, ms: performance.now() - t0 };
    },

    async face(documentJpeg) {
      if (!opts.analyzer) return null;
      const analyzer = await opts.analyzer();
      const a = await analyzer.analyze(documentJpeg);
      const f = a.faces.sort((x, y) => y.score - x.score)[0];
      if (!f) return null;
      const g = toGray(decodeImage(documentJpeg));
      const m = 0.35;
      const b = f.box;
      return jpegOfGray(
        crop(
          g,
          b.x - b.width * m,
          b.y - b.height * m * 1.3,
          b.width * (1 + 2 * m),
          b.height * (1 + 2.3 * m),
        ),
      );
    },

    async close() {
      await ocr.close();
    },
  };
}
