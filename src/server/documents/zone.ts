/**
 * Reading one machine-readable zone out of a band: the glyphs cell by cell (`glyphs.ts`), the
 * layout chosen among those of the zone's size by its document code (`V` a visa), and the
 * decision (`decide.ts`) that settles near ties by check digits and field shapes or refuses them.
 */
import { layoutsFor, parseMrz, type MrzLayout, type MrzResult } from '../../core/mrz';
import { decide } from './decide';
import { ALPHABET, PITCH_PX, readGlyphs, type Templates } from './glyphs';
import type { PageShape } from './page';
import type { Gray } from './raster';

/**
 * A cell whose best template scores below GLYPH_MIN_SCORE is not read; characters within
 * GLYPH_MARGIN of a cell's best are its plausible readings (`decide.ts`). Measured on the test
 * set (docs/documents.md): see the table there.
 */
export const GLYPH_MIN_SCORE = 0.45;
export const GLYPH_MARGIN = 0.04;

/** The zone sizes: two lines of 44 (TD3, MRV-A), three of 30 (TD1), two of 36 (TD2, MRV-B). */
export type ZoneSize = '2x44' | '3x30' | '2x36';

/**
 * Where each size is looked for: on which page shape, at which pitch in the straightened page's
 * pixels. A TD2 card or MRV-B visa (105 mm wide) straightened at the TD3 page's 125 mm has its
 * 2.54 mm pitch scaled by 125/105.
 */
export const ZONE_SIZES: Record<
  ZoneSize,
  { lines: number; length: number; shape: PageShape; pitch: number }
> = {
  '2x44': { lines: 2, length: 44, shape: 'TD3', pitch: PITCH_PX },
  '3x30': { lines: 3, length: 30, shape: 'TD1', pitch: PITCH_PX },
  '2x36': { lines: 2, length: 36, shape: 'TD3', pitch: (PITCH_PX * 125) / 105 },
};

export interface Zone {
  band: Gray;
  size: ZoneSize;
  /** The nominal pitch the band was read at (px). */
  pitch: number;
  layout: MrzLayout;
  score: (position: number, c: string) => number;
  raw: string[];
  mrz: MrzResult | null;
  /** The decision settled every near tie (it may still have found a check digit failing). */
  confident: boolean;
  unsure: string | null;
  /** Unsure only of the name: the zone with each name that fits (`decide`'s `nameOptions`). */
  nameOptions: string[][] | null;
  /** Mean of every cell's best score: how much the band looks like a zone of this size. */
  quality: number;
}

/**
 * Whether zone `a` is a better read than `b`: a confident read whose check digits hold, then a
 * confident one, then the one that looks more like a zone.
 *
 * @example
 * const best = zones.reduce((x, y) => (better(y, x) ? y : x));
 */
export function better(a: Zone, b: Zone): boolean {
  const rank = (z: Zone) => (z.confident && z.mrz?.checksOk ? 2 : z.confident ? 1 : 0);
  if (rank(a) !== rank(b)) return rank(a) > rank(b);
  return a.quality > b.quality;
}

/**
 * Of the layouts of one size, the one whose document code's first letter the first cell reads
 * best as (a visa's `V` against a document's `P`, `I`, `A`, `C`).
 */
function layoutByCode(layouts: MrzLayout[], score: (c: string) => number): MrzLayout {
  let best = layouts[0]!;
  let bestScore = -Infinity;
  for (const l of layouts) {
    for (const c of 'PVIAC') {
      if (!l.documentCode.test(`${c}<`)) continue;
      if (score(c) > bestScore) {
        bestScore = score(c);
        best = l;
      }
    }
  }
  return best;
}

/**
 * The glyph read of a band as a zone of `size`, or null when the band holds no such zone (no
 * grid, or rows of other text: an ID card's photo side is cut into cells too, but few of them
 * look like any OCR-B glyph).
 *
 * @example
 * const zone = readZone(band, '2x44', PITCH_PX, Date.now(), templates);
 */
export function readZone(
  band: Gray,
  size: ZoneSize,
  pitch: number,
  today: number,
  templates: Templates,
): Zone | null {
  const { lines, length } = ZONE_SIZES[size];
  const layouts = layoutsFor(lines, length);
  const glyphs = readGlyphs(band, layouts[0]!, templates, pitch);
  if (!glyphs) return null;
  const bests = glyphs.scores.map((sc) => Math.max(...sc));
  const weak = bests.filter((b) => b < GLYPH_MIN_SCORE).length;
  if (weak > glyphs.scores.length / 4) return null;
  const score = (i: number, c: string) => glyphs.scores[i]![ALPHABET.indexOf(c)]!;
  const layout = layoutByCode(layouts, (c) => score(0, c));
  const d = decide(layout, score, { minScore: GLYPH_MIN_SCORE, margin: GLYPH_MARGIN });
  return {
    band,
    size,
    pitch,
    layout,
    score,
    raw: glyphs.lines,
    mrz: parseMrz(d.lines, today),
    confident: d.status !== 'unsure',
    unsure: d.status === 'unsure' ? d.where : null,
    nameOptions: (d.status === 'unsure' && d.nameOptions) || null,
    quality: bests.reduce((a, b) => a + b, 0) / bests.length,
  };
}
