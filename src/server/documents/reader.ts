/**
 * The document reader: finds and straightens the document in a photo, cuts out the band where
 * the machine-readable zone sits, evens its light, reads it with tesseract, corrects the read by
 * position (`src/core/mrz`) and checks it. Also cuts out the document's face.
 */
import { PNG } from 'pngjs';
import { correctMrz, parseMrz, type MrzResult } from '../../core/mrz';
import type { FaceAnalyzer } from '../analysis/face-analyzer';
import { decodeImage } from '../analysis/image';
import { homography, type Pt } from './homography';
import { DOC_MM, formatByAspect, locateDocument } from './locate';
import { createMrzOcr, type MrzOcr } from './ocr';
import { boxMean, crop, toGray, warpGray, type Gray } from './raster';
import jpeg from 'jpeg-js';

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
  const png = new PNG({ width: g.width, height: g.height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
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

/**
 * A reader with its own warm OCR worker (or the one given).
 *
 * @example
 * const reader = createDocumentReader();
 * const r = await reader.read(jpegBytes, Date.now());
 * if (r.status === 'read') console.log(r.mrz?.data.documentNumber);
 */
export function createDocumentReader(opts: { ocr?: MrzOcr; analyzer?: () => Promise<FaceAnalyzer> } = {}): DocumentReader {
  const ocr = opts.ocr ?? createMrzOcr();

  async function tryBand(g: Gray, today: number) {
    const lines = await ocr.read(pngOf(flatten(g)));
    const raw = lines.map((l) => l.text);
    const corrected = correctMrz(raw);
    const mrz = corrected ? parseMrz(corrected.lines, today) : null;
    return { raw, mrz };
  }

  return {
    async read(image, today) {
      const t0 = performance.now();
      const gray = toGray(decodeImage(image));
      const quad = locateDocument(gray);
      let raw: string[] = [];
      let mrz: MrzResult | null = null;
      let document: ReadOutcome['document'] = null;
      if (quad) {
        const format = formatByAspect(quad.aspect);
        const mm = DOC_MM[format];
        const w = Math.round(mm.w * BAND_PX_PER_MM);
        const h = Math.round(mm.h * BAND_PX_PER_MM);
        const toPhoto = homography(rectCorners(w, h), quad.corners);
        if (toPhoto) {
          const page = warpGray(gray, toPhoto, w, h);
          document = { jpeg: jpegOfGray(page), width: w, height: h };
          const bandH = BAND_MM[format] * BAND_PX_PER_MM;
          ({ raw, mrz } = await tryBand(crop(page, 0, h - bandH, w, bandH), today));
        }
      }
      if (!mrz?.valid) {
        // No outline found, or the page read badly: the lower part of the photo as it is.
        const second = await tryBand(crop(gray, 0, gray.height * 0.45, gray.width, gray.height * 0.55), today);
        if (second.mrz && (!mrz || second.mrz.valid || (!mrz.checksOk && second.mrz.checksOk))) {
          ({ raw, mrz } = second);
        }
      }
      const status: ReadOutcome['status'] = !mrz
        ? 'unreadable'
        : !mrz.valid
          ? mrz.checksOk
            ? 'unreadable'
            : 'checks_failed'
          : mrz.expired
            ? 'expired'
            : 'read';
      return { status, mrz, raw, document, ms: performance.now() - t0 };
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
      return jpegOfGray(crop(g, b.x - b.width * m, b.y - b.height * m * 1.3, b.width * (1 + 2 * m), b.height * (1 + 2.3 * m)));
    },

    async close() {
      await ocr.close();
    },
  };
}
