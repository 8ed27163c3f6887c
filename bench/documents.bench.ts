/**
 * Document scan: server time from an uploaded photo to its outcome (the reader: straighten, read
 * the MRZ, check it), and the accuracy table over the rendered test set (`npm run documents`
 * makes it in `.tmp/documents/`; made here with 8 documents per kind and level if missing).
 * Accuracy: a document counts when every `extractedData` field is exact and the outcome is
 * `read`; "wrong pass" counts reads that passed with any field different from the truth.
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
  if (!existsSync(file)) await makeDocuments(testSet(8), DOCUMENTS_DIR);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as ManifestEntry[];
  const reader = createDocumentReader();
  const rows: BenchRow[] = [];
  const times: number[] = [];
  const table = new Map<string, { n: number; exact: number; wrongPass: number; refused: number }>();
  try {
    // Warm the OCR worker once, as the server keeps it warm.
    await reader.read(readFileSync(join(DOCUMENTS_DIR, manifest[0]!.file)), TODAY);
    for (const e of manifest) {
      const bytes = readFileSync(join(DOCUMENTS_DIR, e.file));
      const t0 = performance.now();
      const r = await reader.read(bytes, TODAY);
      times.push(performance.now() - t0);
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
  let target = { n: 0, exact: 0 };
  let wrong = 0;
  for (const [key, r] of [...table].sort()) {
    if (key.includes('valid ') && !key.includes('heavy')) {
      target = { n: target.n + r.n, exact: target.exact + r.exact };
    }
    wrong += r.wrongPass;
    const valid = key.includes(' valid ');
    rows.push({
      name: `${key} (${r.n}): ${valid ? 'every field exact' : 'refused'}`,
      value: Math.round((100 * (valid ? r.exact : r.refused)) / r.n),
      unit: '%',
      ...(valid && !key.includes('heavy') ? { target: '≥ 98%' } : {}),
    });
  }
  rows.push({
    name: `clean–moderate valid (${target.n}): every field exact`,
    value: Math.round((1000 * target.exact) / Math.max(1, target.n)) / 10,
    unit: '%',
    target: '≥ 98%',
  });
  rows.push({
    name: 'wrong field passed (all documents)',
    value: wrong,
    unit: 'documents',
    target: '0',
  });
  return rows;
}
