/**
 * Document scan: server time from an uploaded photo to its outcome (the reader: straighten, read
 * the MRZ, check it), and the accuracy table over the rendered test set (`npm run documents`
 * makes it in `.tmp/documents/`; made here at its default size if missing: 12 valid documents per
 * kind and level, 4 broken and 4 expired per kind at clean and moderate). Accuracy: a document
 * counts when every `extractedData` field is exact and the outcome is `read`; "wrong pass" counts
 * reads that passed with any field different from the truth; broken and expired documents must
 * not be `read`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DOCUMENTS_DIR,
  makeDocuments,
  type ManifestEntry,
} from '../scripts/documents/make-documents';
import { testSet } from '../scripts/documents/specimens';
import { createDocumentReader } from '../src/server/documents';
import { summarize, type BenchRow } from './types';

const TODAY = Date.UTC(2026, 0, 1);

export default async function run(): Promise<BenchRow[]> {
  const file = join(DOCUMENTS_DIR, 'manifest.json');
  if (!existsSync(file)) await makeDocuments(testSet(12), DOCUMENTS_DIR);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as ManifestEntry[];
  const reader = createDocumentReader();
  const rows: BenchRow[] = [];
  const times: number[] = [];
  const table = new Map<string, { n: number; exact: number; wrongPass: number; refused: number }>();
  let standIns = 0;
  try {
    // Warm the OCR worker once, as the server keeps it warm.
    await reader.read(readFileSync(join(DOCUMENTS_DIR, manifest[0]!.file)), TODAY);
    for (const e of manifest) {
      const bytes = readFileSync(join(DOCUMENTS_DIR, e.file));
      const t0 = performance.now();
      const r = await reader.read(bytes, TODAY);
      times.push(performance.now() - t0);
      if (r.status === 'read' && r.method === 'tesseract') standIns++;
      const key = `${e.kind} ${e.variant} ${e.level}`;
      const row = table.get(key) ?? { n: 0, exact: 0, wrongPass: 0, refused: 0 };
      row.n++;
      const same = r.mrz !== null && JSON.stringify(r.mrz.data) === JSON.stringify(e.expected);
      if (r.status === 'read' && same) row.exact++;
      if (r.status === 'read' && !same) row.wrongPass++;
      if (e.variant !== 'valid' && r.status !== 'read') row.refused++;
      table.set(key, row);
    }
  } finally {
    await reader.close();
  }
  const s = summarize(times);
  rows.push({ name: 'upload → outcome, median', value: s.median, unit: 'ms', target: '< 1500 ms' });
  rows.push({ name: 'upload → outcome, p90', value: s.p90, unit: 'ms', target: '< 1500 ms' });
  const target = new Map<string, { n: number; exact: number }>();
  let wrong = 0;
  let all = 0;
  for (const [key, r] of [...table].sort()) {
    const [kind, variant, level] = key.split(' ') as [string, string, string];
    all += r.n;
    if (variant === 'valid' && level !== 'heavy') {
      for (const k of [kind, 'all']) {
        const t = target.get(k) ?? { n: 0, exact: 0 };
        target.set(k, { n: t.n + r.n, exact: t.exact + r.exact });
      }
    }
    wrong += r.wrongPass;
    const valid = variant === 'valid';
    rows.push({
      name: `${key} (${r.n}): ${valid ? 'every field exact' : 'not read'}`,
      value: Math.round((1000 * (valid ? r.exact : r.refused)) / r.n) / 10,
      unit: '%',
      target: valid ? (level === 'heavy' ? '— (outside the target)' : '≥ 98%') : '100%',
    });
  }
  for (const k of ['passport', 'id', 'all']) {
    const t = target.get(k) ?? { n: 0, exact: 0 };
    rows.push({
      name: `${k === 'all' ? 'all kinds' : k} clean–moderate valid (${t.n}): every field exact`,
      value: Math.round((1000 * t.exact) / Math.max(1, t.n)) / 10,
      unit: '%',
      target: '≥ 98%',
    });
  }
  rows.push({
    name: `wrong field passed (all ${all} documents)`,
    value: wrong,
    unit: 'documents',
    target: '0',
  });
  rows.push({
    name: 'reads where tesseract stood in for the glyphs',
    value: standIns,
    unit: 'documents',
  });
  return rows;
}
