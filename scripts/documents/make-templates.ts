/**
 * `npx tsx scripts/documents/make-templates.ts`: makes `src/server/documents/ocrb-templates.json`,
 * the OCR-B glyph templates of the document reader. Lines holding every MRZ character are
 * rendered with Debian's OCR-B font, photographed clean and at the mild and moderate levels of the
 * test set's photographer (with other seeds), straightened and cut into cells by the reader's own
 * code, and each character's cells averaged per level: three templates a character. Run again
 * only if the cell code changes.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeImage } from '../../src/server/face-analysis/image';
import {
  ALPHABET,
  CELL_H,
  CELL_W,
  cutCells,
  readGlyphs,
  type Templates,
} from '../../src/server/documents/glyphs';
import { straighten } from '../../src/server/documents/reader';
import { TD1, TD3 } from '../../src/core/mrz';
import { toGray } from '../../src/server/documents/raster';
import { encodeTemplates } from '../../src/server/documents/templates';
import { FACE_PNG } from './make-documents';
import { photograph, type Rgba } from './photo';
import { startRenderer } from './render';
import { specimen } from './specimens';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Lines of 44 (passport) and 30 (ID card) characters that use the whole alphabet. */
function lineSets(): { kind: 'passport' | 'id'; lines: string[] }[] {
  const a = ALPHABET.replace('<', '');
  const rot = (k: number, n: number) =>
    (a.slice(k) + a.slice(0, k) + '<<<<<<<<').slice(0, n).replace(/(.{5})(.)/g, '$1<');
  const out: { kind: 'passport' | 'id'; lines: string[] }[] = [];
  for (let k = 0; k < 36; k += 6) {
    out.push({ kind: 'passport', lines: [rot(k, 44), rot(k + 17, 44)] });
    out.push({ kind: 'id', lines: [rot(k + 3, 30), rot(k + 9, 30), rot(k + 21, 30)] });
  }
  return out;
}

/**
 * Photographs of each render: clean, and at the mild and moderate levels with seeds far from the
 * test set's (which uses 1–999 for documents and +1000 for ID card fronts), so no test photo is
 * ever a training photo.
 */
const LEVELS = ['clean', 'mild', 'moderate', 'heavy'] as const;
/** The levels of the first read's templates; `heavy` is the second read's (`ocrb-templates-heavy.json`). */
const FIRST_READ = ['clean', 'mild', 'moderate'] as const;
const PHOTO_SEEDS = {
  clean: [5000],
  mild: [5100, 5200, 5300],
  moderate: [5400, 5500, 5600],
  heavy: [5700, 5800, 5900, 6000, 6100, 6200],
};

type Level = (typeof LEVELS)[number];
const sums: Record<Level, Record<string, Float32Array>> = {
  clean: {},
  mild: {},
  moderate: {},
  heavy: {},
};
const counts: Record<Level, Record<string, number>> = {
  clean: {},
  mild: {},
  moderate: {},
  heavy: {},
};
let skipped = 0;

function average(level: Level): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {};
  for (const ch of ALPHABET) {
    const s = sums[level][ch];
    if (!s) throw new Error(`no ${level} sample of ${ch}`);
    out[ch] = s.map((v) => v / counts[level][ch]!);
  }
  return out;
}

const renderer = await startRenderer(FACE_PNG);
try {
  const renders: { lines: string[]; kind: 'passport' | 'id'; flat: Rgba }[] = [];
  let seed = 900;
  for (const set of lineSets()) {
    const s = { ...specimen(seed++, set.kind, 'valid', 'clean'), lines: set.lines };
    renders.push({
      ...set,
      flat: await renderer.render(s, set.kind === 'passport' ? 'front' : 'back'),
    });
  }
  let clean: Templates | null = null;
  for (const level of LEVELS) {
    for (const [k, r] of renders.entries()) {
      for (const photoSeed of PHOTO_SEEDS[level]) {
        const jpg = photograph(r.flat, level, photoSeed + k).jpeg;
        const st = straighten(toGray(decodeImage(jpg)));
        const cells = st ? cutCells(st.band, r.lines.length, r.lines[0]!.length) : null;
        if (!cells) {
          if (level === 'clean') throw new Error('no MRZ cells in a clean template render');
          skipped++;
          continue;
        }
        if (clean) {
          // A degraded photo teaches only if it was cut in the right place: most cells must
          // already read right with the clean templates.
          const layout = r.lines.length === 2 ? TD3 : TD1;
          const read = readGlyphs(st!.band, layout, clean);
          const text = r.lines.join('');
          const got = read?.lines.join('') ?? '';
          let same = 0;
          for (let i = 0; i < text.length; i++) if (text[i] === got[i]) same++;
          if (same < text.length * 0.9) {
            skipped++;
            continue;
          }
        }
        cells.forEach((row, li) =>
          row.forEach((shifted, ci) => {
            const cell = shifted[0]!;
            const ch = r.lines[li]![ci]!;
            sums[level][ch] ??= new Float32Array(CELL_W * CELL_H);
            for (let i = 0; i < cell.length; i++) sums[level][ch][i]! += cell[i]!;
            counts[level][ch] = (counts[level][ch] ?? 0) + 1;
          }),
        );
      }
    }
    if (level === 'clean') {
      const c = average('clean');
      clean = Object.fromEntries(Object.entries(c).map(([ch, v]) => [ch, [v]]));
    }
  }
} finally {
  await renderer.close();
}
function write(levels: readonly Level[], name: string): void {
  const templates: Templates = {};
  const averaged = levels.map(average);
  for (const ch of ALPHABET) templates[ch] = averaged.map((l) => l[ch]!);
  const file = join(ROOT, 'src/server/documents', name);
  writeFileSync(file, `${JSON.stringify(encodeTemplates(templates), null, 2)}\n`);
  console.log(
    `templates: ${ALPHABET.length} glyphs × ${levels.length} levels (samples of '0': ${levels.map((l) => counts[l]['0']).join(', ')}) in ${file}`,
  );
}
write(FIRST_READ, 'ocrb-templates.json');
write(['heavy'], 'ocrb-templates-heavy.json');
console.log(`templates: photos skipped: ${skipped}`);
