/**
 * The document reader: finds and straightens the document in a photo, cuts out the band where
 * the machine-readable zone sits, evens its light, reads it glyph by glyph against OCR-B
 * templates (`glyphs.ts`), settles near ties by check digits and field shapes or refuses them
 * (`decide.ts`), and checks the zone; tesseract (position-corrected, `src/core/mrz`) may stand in
 * for the checked fields. Also cuts out the document's face.
 */
import { PNG } from 'pngjs';
import { TD1, TD3, correctMrz, parseMrz, type MrzLayout, type MrzResult } from '../../core/mrz';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { decodeImage } from '../face-analysis/image';
import { homography, type Pt } from './homography';
import jpeg from 'jpeg-js';
import { DOC_MM, formatByAspect, locateDocument } from './locate';
import { agreesWithGlyphs, decide } from './decide';
import { ALPHABET, PITCH_PX, readGlyphs, type Templates } from './glyphs';
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
  /** The lines as read before the decision: each cell's best glyph, or tesseract's lines. */
  raw: string[];
  /** `glyphs`: OCR-B templates cell by cell; `tesseract`: it stood in for the checked fields. */
  method: 'glyphs' | 'tesseract' | 'none';
  /** Why a glyph read was not trusted (a weak cell, or the field with more than one fitting reading). */
  unsure: string | null;
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
 * document outline is found. The format is the one the outline's aspect ratio suggests, or `as`.
 *
 * @example
 * const s = straighten(toGray(decodeImage(jpegBytes)));
 */
export function straighten(gray: Gray, as?: 'TD1' | 'TD3'): Straightened | null {
  const quad = locateDocument(gray);
  if (!quad) return null;
  const format = as ?? formatByAspect(quad.aspect);
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
 * A cell whose best template scores below GLYPH_MIN_SCORE is not read; characters within
 * GLYPH_MARGIN of a cell's best are its plausible readings (`decide.ts`). Measured on the test
 * set (docs/documents.md): see the table there.
 */
export const GLYPH_MIN_SCORE = 0.45;
export const GLYPH_MARGIN = 0.04;
/** What tesseract's zone must agree with (`agreesWithGlyphs`). */
const STAND_IN = { minScore: GLYPH_MIN_SCORE, margin: GLYPH_MARGIN, wide: 0.15 };

const layoutOf = (format: 'TD1' | 'TD3') => (format === 'TD3' ? TD3 : TD1);

interface Zone {
  band: Gray;
  layout: MrzLayout;
  score: (position: number, c: string) => number;
  raw: string[];
  mrz: MrzResult | null;
  /** The decision settled every near tie (it may still have found a check digit failing). */
  confident: boolean;
  unsure: string | null;
}

/**
 * The glyph read of a band as a zone of `layout`, or null when the band holds no such zone (no
 * grid, or rows of other text: an ID card's photo side is cut into cells too, but few of them
 * look like any OCR-B glyph).
 */
function readZone(
  band: Gray,
  layout: MrzLayout,
  pitch: number,
  today: number,
  templates: Templates,
): Zone | null {
  const glyphs = readGlyphs(band, layout, templates, pitch);
  if (!glyphs) return null;
  const weak = glyphs.scores.filter((sc) => Math.max(...sc) < GLYPH_MIN_SCORE).length;
  if (weak > glyphs.scores.length / 4) return null;
  const score = (i: number, c: string) => glyphs.scores[i]![ALPHABET.indexOf(c)]!;
  const d = decide(layout, score, { minScore: GLYPH_MIN_SCORE, margin: GLYPH_MARGIN });
  return {
    band,
    layout,
    score,
    raw: glyphs.lines,
    mrz: parseMrz(d.lines, today),
    confident: d.status !== 'unsure',
    unsure: d.status === 'unsure' ? d.where : null,
  };
}

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
      const gray = toGray(decodeImage(image));
      let document: ReadOutcome['document'] = null;
      let zone: Zone | null = null;
      const pageOf = (f: Straightened) => ({
        jpeg: jpegOfGray(f.page),
        width: f.page.width,
        height: f.page.height,
      });
      const first = straighten(gray);
      if (first) {
        document = pageOf(first);
        zone = readZone(first.band, layoutOf(first.format), PITCH_PX, today, templates);
        if (!zone) {
          // A steep perspective can make a passport page look like a card: the other format.
          const second = straighten(gray, first.format === 'TD3' ? 'TD1' : 'TD3');
          const z =
            second && readZone(second.band, layoutOf(second.format), PITCH_PX, today, templates);
          if (second && z) {
            zone = z;
            document = pageOf(second);
          }
        }
      }
      if (!zone) {
        // No outline (a light table, a page filling the frame) or no zone where the outline
        // said: the lower part of the photo as it is, at the sizes a held-up document has.
        const lower = flatten(crop(gray, 0, gray.height * 0.45, gray.width, gray.height * 0.55));
        for (const pitch of [PITCH_PX * 0.65, PITCH_PX * 0.9, PITCH_PX * 1.2]) {
          for (const layout of [TD3, TD1]) {
            const z = readZone(lower, layout, pitch, today, templates);
            if (z && (!zone || (z.confident && z.mrz?.valid && !zone.mrz?.valid))) zone = z;
          }
          if (zone?.confident && zone.mrz?.valid) break;
        }
      }
      let method: ReadOutcome['method'] = zone ? 'glyphs' : 'none';
      // tesseract reads digits well: its zone may stand in for the glyphs' when its check digits
      // hold, it says what the glyphs say wherever no check digit would catch a misread (names,
      // codes, sex) and rewrites no clearly read cell. Not worth asking when the glyphs have a
      // near tie in those unchecked places.
      if (
        zone &&
        !(zone.confident && zone.mrz?.valid) &&
        agreesWithGlyphs(zone.layout, zone.score, STAND_IN, null)
      ) {
        const t = await tryBand(zone.band, today);
        if (t.mrz?.valid && agreesWithGlyphs(zone.layout, zone.score, STAND_IN, t.mrz.lines)) {
          zone = { ...zone, raw: t.raw, mrz: t.mrz, confident: true, unsure: null };
          method = 'tesseract';
        }
      }
      const mrz = zone?.mrz ?? null;
      const status: ReadOutcome['status'] =
        !mrz || !zone?.confident
          ? 'unreadable'
          : !mrz.valid
            ? mrz.checksOk
              ? 'unreadable'
              : 'checks_failed'
            : mrz.expired
              ? 'expired'
              : 'read';
      return {
        status,
        mrz,
        raw: zone?.raw ?? [],
        method,
        unsure: zone?.unsure ?? null,
        document,
        ms: performance.now() - t0,
      };
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
