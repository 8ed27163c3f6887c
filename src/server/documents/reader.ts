/**
 * The document reader: finds and straightens the document in a photo (`page.ts`) and reads what
 * the side carries, as the caller's plan says: a machine-readable zone (`zone.ts`: OCR-B glyphs,
 * decided by check digits and field shapes, tesseract standing in for unclear digits) or the
 * PDF417 of a licence (`barcode.ts`, parsed by `src/core/aamva`). A side with nothing to read
 * (an ID card's front) is only straightened. Also cuts out the document's face.
 */
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { parseAamva, type AamvaResult } from '../../core/aamva';
import { correctMrz, parseMrz, type MrzResult } from '../../core/mrz';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { decodeImage } from '../face-analysis/image';
import { readPdf417 } from './barcode';
import { agreesWithGlyphs } from './decide';
import { PITCH_PX, type Templates } from './glyphs';
import { formatByAspect, locateDocument, type Quad } from './locate';
import { createMrzOcr, type MrzOcr } from './ocr';
import {
  colourPage,
  flatten,
  straightenPage,
  zoneBand,
  type PageShape,
  type Rgb,
  type StraightPage,
} from './page';
import { boxMean, crop, toGray, warpGray, type Gray } from './raster';
import { homography } from './homography';
import { loadHeavyTemplates, loadTemplates } from './templates';
import {
  GLYPH_MARGIN,
  GLYPH_MIN_SCORE,
  better,
  readZone,
  ZONE_SIZES,
  type Zone,
  type ZoneSize,
} from './zone';

export { GLYPH_MARGIN, GLYPH_MIN_SCORE } from './zone';

/** What to look for on a side (`plan.ts` makes it from the document kind and the side). */
export interface ReadPlan {
  /** Zone sizes, in the order to try them. */
  zones: readonly ZoneSize[];
  /** A PDF417 barcode (a licence's back, a North American ID card's). */
  barcode: boolean;
  /**
   * When the outline's shape holds none of the zones, look further: the page as the other shape,
   * then the photo's lower part unstraightened (true by default). Off for a side that carries a
   * zone only if it is of another shape (an ID card's front: a TD2 card has its zone there).
   */
  fallbacks?: boolean;
}

/** Both: what an upload without a declared document asks for. */
export const READ_EVERYTHING: ReadPlan = { zones: ['2x44', '3x30', '2x36'], barcode: true };

export interface ReadOutcome {
  /**
   * `read`: a zone whose check digits hold, or a licence's barcode (the forgery and consistency
   * checks come after); otherwise why not.
   */
  status: 'read' | 'unreadable' | 'checks_failed' | 'expired';
  mrz: MrzResult | null;
  licence: AamvaResult | null;
  /** A PDF417 was found (whatever it said). */
  barcodeFound: boolean;
  /** The lines as read before the decision: each cell's best glyph, or tesseract's lines. */
  raw: string[];
  /**
   * `glyphs`: OCR-B templates cell by cell; `tesseract`: it stood in for the checked fields;
   * `barcode`: the PDF417; `none`: nothing was read (or nothing was to be read).
   */
  method: 'glyphs' | 'tesseract' | 'barcode' | 'none';
  /** Why a glyph read was not trusted (a weak cell, or the field with more than one fitting reading). */
  unsure: string | null;
  /**
   * Unsure of the name only: the zone with each name that fits, every check digit holding and
   * every field of its shape (the printed fields may settle it: `name-by-viz.ts`); else null.
   */
  nameOptions: MrzResult[] | null;
  /** The straightened page (grey and colour), when an outline was found. */
  page: (StraightPage & { colour: Rgb | null }) | null;
  ms: number;
}

export interface FoundFace {
  /** The face cut out of the page, as a JPEG. */
  jpeg: Uint8Array;
  /** Where it is on the page, in the page's pixels. */
  box: { x: number; y: number; width: number; height: number };
  page: { width: number; height: number };
  score: number;
}

export interface DocumentReader {
  read(image: Uint8Array, today: number, plan?: ReadPlan): Promise<ReadOutcome>;
  /** The reader has face models (without them no face is looked for, and the face check is not performed). */
  readonly faces: boolean;
  /** The most likely face on a straightened document page (grey), or null. */
  findFace(page: Gray): Promise<FoundFace | null>;
  /** The face on a straightened document page (grey), as a JPEG, or null. */
  face(page: Gray): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

/** A grey raster as PNG; `fast`: the least compression (for bytes decoded at once in-process). */
function pngOf(g: Gray, fast = false): Uint8Array {
  const png = new PNG({
    width: g.width,
    height: g.height,
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
  });
  png.data = Buffer.from(g.data);
  return PNG.sync.write(png, {
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
    ...(fast ? { deflateLevel: 1 } : {}),
  });
}

/**
 * A grey raster as a JPEG.
 *
 * @example
 * jpegOfGray(page.gray); // Uint8Array [0xff, 0xd8, …]
 */
export function jpegOfGray(g: Gray): Uint8Array {
  const data = new Uint8Array(g.width * g.height * 4);
  for (let i = 0; i < g.width * g.height; i++) {
    data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = g.data[i]!;
    data[i * 4 + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ data, width: g.width, height: g.height }, 90).data);
}

export interface Straightened {
  format: PageShape;
  page: Gray;
  /** The bottom band of the page where the zone is, light evened. */
  band: Gray;
}

/**
 * The document of a photo, straightened, and its zone's band; null when no document outline is
 * found. The format is the one the outline's aspect ratio suggests, or `as`.
 *
 * @example
 * const s = straighten(toGray(decodeImage(jpegBytes)));
 */
export function straighten(gray: Gray, as?: PageShape): Straightened | null {
  const quad = locateDocument(gray);
  const page = quad ? straightenPage(gray, quad, as) : null;
  if (!page) return null;
  return { format: page.shape, page: page.gray, band: zoneBand(page) };
}

/** How far (photo pixels) a corner of a second outline must be from the first's to be worth a read. */
const MOVED_PX = 4;

/** Whether two outlines differ by more than MOVED_PX at some corner. */
function moved(a: Quad, b: Quad): boolean {
  return a.corners.some(
    (c, i) => Math.hypot(c.x - b.corners[i]!.x, c.y - b.corners[i]!.y) > MOVED_PX,
  );
}

/** What tesseract's zone must agree with (`agreesWithGlyphs`). */
const STAND_IN = { minScore: GLYPH_MIN_SCORE, margin: GLYPH_MARGIN, wide: 0.15 };

/** Pixmap of a grey raster as zxing-wasm takes it. */
function rgbaOf(g: Gray): { data: Uint8ClampedArray; width: number; height: number } {
  const data = new Uint8ClampedArray(g.width * g.height * 4);
  for (let i = 0; i < g.width * g.height; i++) {
    data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = g.data[i]!;
    data[i * 4 + 3] = 255;
  }
  return { data, width: g.width, height: g.height };
}

/**
 * The PDF417 of a card: on the card straightened at 10 px/mm (no rotation or perspective left
 * for the decoder), then at 16 px/mm lightly smoothed (noise), then the photo as it is.
 */
async function findBarcode(
  gray: Gray,
  quad: Quad | null,
  photo: Uint8Array,
): Promise<string | null> {
  if (quad) {
    for (const [ppm, smooth] of [
      [10, false],
      [16, true],
    ] as const) {
      const w = Math.round(85.6 * ppm);
      const h = Math.round(54 * ppm);
      const toPhoto = homography(
        [
          { x: 0, y: 0 },
          { x: w, y: 0 },
          { x: w, y: h },
          { x: 0, y: h },
        ],
        quad.corners,
      );
      if (!toPhoto) continue;
      let card = warpGray(gray, toPhoto, w, h);
      if (smooth) card = { ...card, data: Uint8Array.from(boxMean(card, 1), Math.round) };
      const text = await readPdf417(rgbaOf(card));
      if (text) return text;
    }
  }
  return readPdf417(photo);
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
  opts: {
    ocr?: MrzOcr;
    analyzer?: () => Promise<FaceAnalyzer>;
    templates?: Templates;
    /** The second read's templates (`loadHeavyTemplates`). */
    heavyTemplates?: Templates;
  } = {},
): DocumentReader {
  const ocr = opts.ocr ?? createMrzOcr();
  const templates = opts.templates ?? loadTemplates();
  const heavy = () => opts.heavyTemplates ?? loadHeavyTemplates();

  async function tryBand(g: Gray, today: number) {
    const lines = await ocr.read(pngOf(g));
    const raw = lines.map((l) => l.text);
    const corrected = correctMrz(raw);
    const mrz = corrected ? parseMrz(corrected.lines, today) : null;
    return { raw, mrz };
  }

  type Found = { zone: Zone; page: StraightPage | null };

  /**
   * The zone as `searchZone` finds it; when no read there is sure, every band it found a zone in
   * read again with the heavy templates (best looking first): a blurred, noisy photo makes
   * E and F, L and I, K and X near ties under the first read's templates, which the decision
   * then refuses. The second read costs nothing when the first is sure.
   */
  function findZone(
    gray: Gray,
    quad: Quad | null,
    first: StraightPage | null,
    sizes: readonly ZoneSize[],
    today: number,
    fallbacks: boolean,
  ): { zone: Zone | null; page: StraightPage | null } {
    const found: Found[] = [];
    const r = searchZone(gray, quad, first, sizes, today, fallbacks, found);
    if (r.zone?.confident && r.zone.mrz?.checksOk) return r;
    const open: Found[] = r.zone?.nameOptions ? [r as Found] : [];
    for (const f of [...found].sort((a, b) => (better(a.zone, b.zone) ? -1 : 1))) {
      const z = f.zone;
      const again = readZone(z.band, z.size, z.pitch, today, heavy());
      if (again?.confident && again.mrz?.checksOk) return { zone: again, page: f.page };
      if (again?.nameOptions) open.push({ zone: again, page: f.page });
    }
    // Only the name left open: every fitting name of the reads that got that far, for the
    // printed fields to settle (`name-by-viz.ts`), on the page of the first such read.
    if (open.length === 0) return r;
    const seen = new Set<string>();
    const nameOptions = open
      .flatMap((f) => f.zone.nameOptions!)
      .filter((lines) => !seen.has(lines.join('')) && seen.add(lines.join('')));
    return { zone: { ...open[0]!.zone, nameOptions }, page: open[0]!.page };
  }

  /**
   * The zone on a page of its shape, then as the other shape, then on a second outline, then the
   * photo's lower part; the first read that is confident with its check digits holding, else the
   * best looking of all. Every zone read is left in `found`.
   */
  function searchZone(
    gray: Gray,
    quad: Quad | null,
    first: StraightPage | null,
    sizes: readonly ZoneSize[],
    today: number,
    fallbacks: boolean,
    found: Found[],
  ): { zone: Zone | null; page: StraightPage | null } {
    const good = () => found.find((f) => f.zone.confident && f.zone.mrz?.checksOk);
    const best = () =>
      found.reduce<(typeof found)[number] | null>(
        (b, f) => (!b || better(f.zone, b.zone) ? f : b),
        null,
      ) ?? { zone: null, page: first };
    const onPage = (page: StraightPage) => {
      const band = zoneBand(page);
      for (const size of sizes) {
        const z = ZONE_SIZES[size];
        if (z.shape !== page.shape) continue;
        const zone = readZone(band, size, z.pitch, today, templates);
        if (zone) found.push({ zone, page });
        if (good()) return;
      }
    };
    if (first && quad) {
      onPage(first);
      if (good() || !fallbacks) return good() ?? best();
      // A steep perspective can make a passport page look like a card: the other shape.
      const otherShape = first.shape === 'TD3' ? 'TD1' : 'TD3';
      const other = straightenPage(gray, quad, otherShape);
      if (other) onPage(other);
      if (good()) return good()!;
      // A corner lost in a strong light fall-off (the outline then cuts across the page, and the
      // zone's pitch drifts along its lines): the outline found again at a lower cut, both shapes.
      const low = locateDocument(gray, 'low');
      if (low && moved(low, quad)) {
        const shapes: PageShape[] = [formatByAspect(low.aspect), otherShape, first.shape];
        for (const shape of new Set(shapes)) {
          const p = straightenPage(gray, low, shape);
          if (p) onPage(p);
          if (good()) return good()!;
        }
      }
      if (found.length > 0) return best();
    }
    if (!fallbacks) return best();
    // No outline (a light table, a page filling the frame) or no zone where the outline said:
    // the lower part of the photo as it is, at the sizes a held-up document has.
    const lower = flatten(crop(gray, 0, gray.height * 0.45, gray.width, gray.height * 0.55));
    for (const f of [0.65, 0.9, 1.2]) {
      for (const size of sizes) {
        const zone = readZone(lower, size, PITCH_PX * f, today, templates);
        if (zone) found.push({ zone, page: first });
        if (good()) return good()!;
      }
    }
    return best();
  }

  /**
   * The face models see the grey page as a PNG of the least compression and look only for boxes:
   * a JPEG of the page cost 100 ms to make and 90 ms to read back, and the description, antispoof
   * and liveness models two thirds of the models' time, none of it needed for a portrait's place.
   */
  async function findFace(g: Gray): Promise<FoundFace | null> {
    if (!opts.analyzer) return null;
    const analyzer = await opts.analyzer();
    const a = await analyzer.analyze(pngOf(g, true), { boxesOnly: true });
    const f = a.faces.sort((x, y) => y.score - x.score)[0];
    if (!f) return null;
    const m = 0.35;
    const b = f.box;
    return {
      jpeg: jpegOfGray(
        crop(
          g,
          b.x - b.width * m,
          b.y - b.height * m * 1.3,
          b.width * (1 + 2 * m),
          b.height * (1 + 2.3 * m),
        ),
      ),
      box: { x: b.x, y: b.y, width: b.width, height: b.height },
      page: { width: g.width, height: g.height },
      score: f.score,
    };
  }

  return {
    async read(image, today, plan = READ_EVERYTHING) {
      const t0 = performance.now();
      const photo = decodeImage(image);
      const gray = toGray(photo);
      const quad = locateDocument(gray);
      let page = quad ? straightenPage(gray, quad) : null;
      let zone: Zone | null = null;
      if (plan.zones.length > 0) {
        const found = findZone(gray, quad, page, plan.zones, today, plan.fallbacks ?? true);
        zone = found.zone;
        page = found.page;
      }
      let method: ReadOutcome['method'] = zone ? 'glyphs' : 'none';
      // tesseract reads digits well: its zone may stand in for the glyphs' when its check digits
      // hold, it says what the glyphs say wherever no check digit would catch a misread (names,
      // codes, sex) and rewrites no clearly read cell. Not worth asking when the glyphs have a
      // near tie in those unchecked places.
      if (
        zone &&
        !(zone.confident && zone.mrz?.checksOk) &&
        agreesWithGlyphs(zone.layout, zone.score, STAND_IN, null)
      ) {
        const t = await tryBand(zone.band, today);
        if (
          t.mrz?.checksOk &&
          t.mrz.format === zone.layout.format &&
          agreesWithGlyphs(zone.layout, zone.score, STAND_IN, t.mrz.lines)
        ) {
          zone = { ...zone, raw: t.raw, mrz: t.mrz, confident: true, unsure: null };
          method = 'tesseract';
        }
      }
      let licence: AamvaResult | null = null;
      let barcodeFound = false;
      if (!zone && plan.barcode) {
        const text = await findBarcode(gray, quad, image);
        barcodeFound = text !== null;
        licence = text ? parseAamva(text, today) : null;
        if (licence) method = 'barcode';
      }
      const mrz = zone?.mrz ?? null;
      const status = licence ? licenceStatus(licence) : zoneStatus(zone);
      return {
        status,
        mrz,
        licence,
        barcodeFound,
        raw: zone?.raw ?? [],
        method,
        unsure: zone?.unsure ?? null,
        nameOptions: nameOptionsOf(zone, today),
        page: page ? { ...page, colour: colourPage(photo, page) } : null,
        ms: performance.now() - t0,
      };
    },

    faces: opts.analyzer !== undefined,

    findFace,

    async face(page) {
      return (await findFace(page))?.jpeg ?? null;
    },

    async close() {
      await ocr.close();
    },
  };
}

/** A zone's name options (`ReadOutcome.nameOptions`) that would each be a read. */
function nameOptionsOf(zone: Zone | null, today: number): MrzResult[] | null {
  if (!zone?.nameOptions) return null;
  const options = zone.nameOptions
    .map((lines) => parseMrz(lines, today))
    .filter((m): m is MrzResult => {
      const status = m && zoneStatus({ ...zone, mrz: m, confident: true });
      return status === 'read' || status === 'expired';
    });
  return options.length > 0 ? options : null;
}

/**
 * A zone is read when its check digits hold and every field has its shape; a state code that is
 * no state's is left to the forgery checks (a confident read of an invented code is a forgery,
 * not a misread).
 */
function zoneStatus(zone: Zone | null): ReadOutcome['status'] {
  const mrz = zone?.mrz;
  if (!mrz || !zone.confident) return 'unreadable';
  if (!mrz.checksOk) return 'checks_failed';
  const shapeProblems = mrz.problems.filter(
    (p) => p !== 'unknown_issuing_country' && p !== 'unknown_nationality',
  );
  if (shapeProblems.length > 0) return 'unreadable';
  return mrz.expired ? 'expired' : 'read';
}

/** A barcode is exact or absent: missing fields or impossible dates in it are not a read. */
function licenceStatus(l: AamvaResult): ReadOutcome['status'] {
  if (l.problems.some((p) => p !== 'unknown_jurisdiction')) return 'unreadable';
  return l.expired ? 'expired' : 'read';
}
