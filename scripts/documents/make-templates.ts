/**
 * `npx tsx scripts/documents/make-templates.ts`: makes `src/server/documents/ocrb-templates.json`,
 * the OCR-B glyph templates of the document reader. Lines holding every MRZ character are
 * rendered with Debian's OCR-B font, photographed clean, straightened and cut into cells by the
 * reader's own code, and each character's cells averaged. Run again only if the cell code changes.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeImage } from '../../src/server/analysis/image';
import {
  ALPHABET,
  CELL_H,
  CELL_W,
  cutCells,
  type Templates,
} from '../../src/server/documents/glyphs';
import { straighten } from '../../src/server/documents/reader';
import { toGray } from '../../src/server/documents/raster';
import { encodeTemplates } from '../../src/server/documents/templates';
import { FACE_PNG } from './make-documents';
import { photograph } from './photo';
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

const renderer = await startRenderer(FACE_PNG);
const sums: Record<string, Float32Array> = {};
const counts: Record<string, number> = {};
try {
  let seed = 900;
  for (const set of lineSets()) {
    const s = { ...specimen(seed++, set.kind, 'valid', 'clean'), lines: set.lines };
    const flat = await renderer.render(s, set.kind === 'passport' ? 'front' : 'back');
    const jpg = photograph(flat, 'clean', s.seed).jpeg;
    const st = straighten(toGray(decodeImage(jpg)));
    if (!st) throw new Error(`no document found in template render ${s.id}`);
    const cells = cutCells(st.band, set.lines.length, set.lines[0]!.length);
    if (!cells) throw new Error(`no MRZ cells in template render ${s.id}`);
    cells.forEach((row, li) =>
      row.forEach((shifted, ci) => {
        const cell = shifted[2]!;
        const ch = set.lines[li]![ci]!;
        sums[ch] ??= new Float32Array(CELL_W * CELL_H);
        for (let i = 0; i < cell.length; i++) sums[ch][i]! += cell[i]!;
        counts[ch] = (counts[ch] ?? 0) + 1;
      }),
    );
  }
} finally {
  await renderer.close();
}
const templates: Templates = {};
for (const ch of ALPHABET) {
  const s = sums[ch];
  if (!s) throw new Error(`no sample of ${ch}`);
  templates[ch] = s.map((v) => v / counts[ch]!);
}
const file = join(ROOT, 'src/server/documents/ocrb-templates.json');
writeFileSync(file, `${JSON.stringify(encodeTemplates(templates), null, 1)}\n`);
console.log(
  `templates: ${ALPHABET.length} glyphs (${Object.values(counts).join(',')} samples) in ${file}`,
);
