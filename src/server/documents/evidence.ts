/**
 * What a photographed side shows besides its zone or barcode, for the forgery and consistency
 * checks: the face on a portrait side (the face models on the straightened page), the printed
 * fields read as text (tesseract on the part of the page right of the portrait and above the
 * zone), the page's large print (SPECIMEN, VOID: tesseract on the page shrunk to about 250 rows)
 * and its stamp ink alone (`stamp.ts`), and the measures that tell a photocopy or a screen
 * (`original.ts`). Face and text are read at the same time.
 */
import { missingFields, stampSays, type Expected } from './checks/viz';
import type { MrzOcr } from './ocr';
import {
  judgeOriginal,
  originalMeasures,
  type OriginalMeasures,
  type OriginalVerdict,
} from './original';
import { BAND_MM, flatten, PAGE_PX_PER_MM } from './page';
import type { DocumentReader, FoundFace, ReadOutcome } from './reader';
import { PNG } from 'pngjs';
import { crop, scaled, type Gray } from './raster';
import { stampReads } from './stamp';

export interface SideEvidence {
  side: 'front' | 'back';
  /** The printed fields' text; null when the side has none or none was read. */
  vizText: string | null;
  /** The side's large print, read on the page shrunk to about 250 rows (SPECIMEN, VOID). */
  bigText: string | null;
  /** The side's stamp ink read alone (SPECIMEN, VOID); null when the page shows next to none. */
  stampText: string | null;
  /** The face found: undefined when not looked for (no portrait on this side), null when none. */
  face: FoundFace | null | undefined;
  original: (OriginalVerdict & { measures: OriginalMeasures }) | null;
  /** Milliseconds: the read, the text, the face, the whole side. */
  ms: { read: number; text: number; face: number; total: number };
}

function png(g: Gray): Uint8Array {
  const p = new PNG({
    width: g.width,
    height: g.height,
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
  });
  p.data = Buffer.from(g.data);
  return PNG.sync.write(p, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
}

/**
 * Where the printed fields are on a portrait side: right of the portrait (its left 27% is the
 * portrait's), under the header, above the zone when the side has one.
 *
 * @example
 * vizRegion(page.gray, true); // the passport page's fields
 */
export function vizRegion(page: Gray, hasZone: boolean): Gray {
  const bandPx = BAND_MM.TD3 * PAGE_PX_PER_MM;
  const bottom = hasZone ? page.height - bandPx : page.height * 0.97;
  const top = page.height * 0.08;
  return crop(page, page.width * 0.27, top, page.width * 0.73, bottom - top);
}

/** The light evening's radius: 3 mm of the straightened page. */
const EVEN_RADIUS_PX = 3 * PAGE_PX_PER_MM;

/**
 * The printed fields' second image for OCR (the first is the region as photographed): the local
 * mean over 3 mm divided out,
 * so that the values are dark on an even paper wherever the light falls and tesseract's one
 * threshold keeps the background's pattern out (without it, tesseract lost a whole name under
 * the guilloche on a camera's 1280 × 720 frame).
 *
 * @example
 * const png = vizImage(page.gray, true);
 */
export function vizImage(page: Gray, hasZone: boolean): Gray {
  return flatten(vizRegion(page, hasZone), EVEN_RADIUS_PX);
}

/**
 * The printed fields' third image for OCR: the light-evened one at this scale. tesseract read
 * there a birth date (`1982`, read `1952` at full size both ways) and a given name (`CHIDI`, read
 * `CHIDL`, `nen`) that it lost at full size.
 */
const SMALL_VIZ = 0.75;

/** The large print's height after shrinking: where its letters come out at the size OCR reads best. */
const BIG_PRINT_HEIGHT = 250;

/**
 * The page shrunk by a whole factor to about `BIG_PRINT_HEIGHT` rows: a passport page by 4, an ID
 * card (a smaller page, the same stamp in fewer pixels) by 2. At a quarter, a card's SPECIMEN came
 * out too small for OCR to read more than a piece of it.
 *
 * @example
 * bigPrintImage({ width: 856, height: 540, data }).width; // 428
 */
export function bigPrintImage(g: Gray): Gray {
  const f = Math.max(1, Math.round(g.height / BIG_PRINT_HEIGHT));
  const w = Math.floor(g.width / f);
  const h = Math.floor(g.height / f);
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++)
        for (let dx = 0; dx < f; dx++) s += g.data[(y * f + dy) * g.width + x * f + dx]!;
      data[y * w + x] = Math.round(s / (f * f));
    }
  }
  return { width: w, height: h, data };
}

const text = (lines: { text: string }[]) => lines.map((l) => l.text).join('\n');

/**
 * Gathers a side's evidence after its read. A side whose read failed gets only the cheap
 * measures: its answer is a retry whatever its face and text say.
 *
 * @example
 * const ev = await gatherEvidence(reader, textOcr, outcome, 'front', { portrait: true, worthIt: true });
 */
export async function gatherEvidence(
  reader: DocumentReader,
  textOcr: MrzOcr,
  read: ReadOutcome,
  side: 'front' | 'back',
  opts: {
    portrait: boolean;
    worthIt: boolean;
    /** What the side's own zone or barcode says the printed fields hold, when it was read. */
    want?: Expected;
  },
): Promise<SideEvidence> {
  const t0 = performance.now();
  const page = read.page;
  // Measured once the OCR has been handed to its worker thread (below), so both run at once.
  const measureOriginal = () => {
    if (!page?.colour) return null;
    const measures = originalMeasures(page.colour, page.gray);
    return { ...judgeOriginal(measures), measures };
  };
  let original: SideEvidence['original'] = null;
  let vizText: string | null = null;
  let bigText: string | null = null;
  let stampText: string | null = null;
  let face: FoundFace | null | undefined = undefined;
  let textMs = 0;
  let faceMs = 0;
  if (page && opts.worthIt) {
    const hasZone = read.mrz !== null;
    const jobs: Promise<void>[] = [
      (async () => {
        const t = performance.now();
        bigText = text(await textOcr.read(png(bigPrintImage(page.gray))));
        // The stamp ink alone, at each scale until its word is seen (stamp.ts).
        const stampTexts: string[] = [];
        for (const image of page.colour ? stampReads(page.colour) : []) {
          stampTexts.push(text(await textOcr.read(png(image))));
          if (stampSays(stampTexts.join('\n'))) break;
        }
        stampText = stampTexts.length > 0 ? stampTexts.join('\n') : null;
        textMs += performance.now() - t;
      })(),
    ];
    if (opts.portrait) {
      jobs.push(
        (async () => {
          const t = performance.now();
          // Read light evened, as photographed, then light evened at three quarters: each read
          // loses fields the others keep, and the check only looks for the zone's values in the
          // text, so the reads together lose fewer genuine fields and cannot make another
          // person's appear. When the side's own zone or barcode says what to look for, the
          // next read is made only while some of it is missing (the text's only other use,
          // SPECIMEN and VOID, has the large print).
          const even = vizImage(page.gray, hasZone);
          const images = [
            () => even,
            () => vizRegion(page.gray, hasZone),
            () => scaled(even, SMALL_VIZ),
          ];
          const texts: string[] = [];
          for (const image of images) {
            texts.push(text(await textOcr.read(png(image()))));
            if (opts.want && missingFields(texts.join('\n'), opts.want)?.length === 0) break;
          }
          vizText = texts.join('\n');
          textMs += performance.now() - t;
        })(),
        (async () => {
          if (!reader.faces) return;
          const t = performance.now();
          face = await reader.findFace(page.gray);
          faceMs = performance.now() - t;
        })(),
      );
    }
    await new Promise((next) => setImmediate(next));
    original = measureOriginal();
    await Promise.all(jobs);
  } else {
    original = measureOriginal();
  }
  return {
    side,
    vizText,
    bigText,
    stampText,
    face,
    original,
    ms: {
      read: Math.round(read.ms),
      text: Math.round(textMs),
      face: Math.round(faceMs),
      total: Math.round(read.ms + performance.now() - t0),
    },
  };
}
