/**
 * `npx tsx scripts/documents/make-heavy.ts [--kind passport] [--from 7001] [--count 30] [--level heavy] [--out DIR]`:
 * genuine documents of one kind at one photographic level, at seeds of your choosing (the test
 * set uses 1–999 and +1000 for card fronts, the templates 5000–6211), rendered like the test
 * set into `DIR` (default `.tmp/heavy/<kind>`) with its `manifest.json`. For a rate on one
 * condition larger than the test set's few documents a level:
 * `DOCUMENTS_SET=.tmp/heavy/passport npm run bench -- documents`.
 */
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDocuments } from './make-documents';
import { KINDS, specimen, type Kind, type Level } from './specimens';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const kind = arg('kind', 'passport') as Kind;
if (!KINDS.includes(kind)) throw new Error(`--kind: one of ${KINDS.join(', ')}`);
const level = arg('level', 'heavy') as Level;
if (!['clean', 'mild', 'moderate', 'heavy'].includes(level))
  throw new Error('--level: clean, mild, moderate or heavy');
const from = Number(arg('from', '7001'));
const count = Number(arg('count', '30'));
const out = resolve(arg('out', join(ROOT, '.tmp/heavy', kind)));
const t0 = Date.now();
const set = Array.from({ length: count }, (_, i) => specimen(from + i, kind, 'valid', level));
await makeDocuments(set, out, console.log);
console.log(
  `${count} ${level} ${kind} documents (seeds ${from}–${from + count - 1}) in ${out} (${Date.now() - t0} ms)`,
);
