/**
 * Document scan: server time from an uploaded photo to its outcome (read what the side carries,
 * the forgery and consistency checks, the face) and the accuracy table over the rendered test set
 * (`npm run documents` makes it in `.tmp/documents/`; made here at its default size if missing).
 * Every photo goes through `scanSide` as the node's service sends it, in a live session (the ICAO
 * specimen state is refused) judged on 1 January 2026; a two-sided card's front first, then its
 * back. A genuine document counts when the outcome is `scanSuccess` with every `extractedData`
 * field exact; "wrong pass" counts successes with any field different from the truth; broken,
 * expired and forged documents must not succeed. Times: wall and CPU (`process.cpuUsage`, every
 * thread) per side and per document, and the attempt's steps per side (on stderr).
 * `DOCUMENTS_ONLY=<regular expression>` runs only the documents whose id matches;
 * `DOCUMENTS_SET=<folder>` another rendered set (`scripts/documents/make-heavy.ts`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DocumentKind } from '../src/core/flow';
import {
  DOCUMENTS_DIR,
  makeDocuments,
  type ManifestEntry,
} from '../scripts/documents/make-documents';
import { testSet, type Forgery, type Kind } from '../scripts/documents/specimens';
import { createDocumentReader, createTextOcr, scanSide } from '../src/server/documents';
import type { ScanResult } from '../src/server/documents';
import type { CheckName } from '../src/server/documents/checks';
import { summarize, type BenchRow } from './types';

const TODAY = Date.UTC(2026, 0, 1);

/** What the page asks for when the user holds each kind of test document. */
const ASKED: Record<Kind, DocumentKind> = {
  passport: 'passport',
  id: 'id',
  td2: 'id',
  permit: 'residence-permit',
  'visa-a': 'visa',
  'visa-b': 'visa',
  dl: 'dl',
};

/** The check each forgery must fail (besides being refused). */
const CAUGHT_BY: Record<Forgery, CheckName> = {
  invented_state: 'issuingState',
  viz_mismatch: 'visualZone',
  impossible_dates: 'dates',
  no_face: 'face',
  specimen: 'specimen',
  void: 'specimen',
  photocopy: 'original',
  screen: 'original',
  front_mismatch: 'visualZone',
};

interface Tally {
  n: number;
  ok: number;
}
const tally = () => ({ n: 0, ok: 0 });
const pct = (t: Tally) => Math.round((1000 * t.ok) / Math.max(1, t.n)) / 10;

export default async function run(): Promise<BenchRow[]> {
  // DOCUMENTS_SET=<folder>: another rendered set (`scripts/documents/make-heavy.ts`).
  const dir = process.env['DOCUMENTS_SET'] ? resolve(process.env['DOCUMENTS_SET']) : DOCUMENTS_DIR;
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) await makeDocuments(testSet(), dir, (l) => process.stderr.write(`${l}\n`));
  // DOCUMENTS_ONLY=<regular expression>: only the documents whose id matches (a subset re-run).
  const only = process.env['DOCUMENTS_ONLY'] ? new RegExp(process.env['DOCUMENTS_ONLY']) : null;
  const manifest = (JSON.parse(readFileSync(file, 'utf8')) as ManifestEntry[]).filter(
    (e) => !only || only.test(e.id),
  );
  const { createHumanAnalyzer } = await import('../src/server/face-analysis/human-analyzer');
  const analyzer = createHumanAnalyzer();
  const reader = createDocumentReader({ analyzer: async () => analyzer });
  const textOcr = createTextOcr();
  const outcomeTimes: number[] = [];
  /** CPU milliseconds of a whole document (every side), all threads (tesseract runs in a worker). */
  const documentCpu: number[] = [];
  const sideTimes = new Map<string, number[]>();
  const sideCpu = new Map<string, number[]>();
  const sideSteps = new Map<string, { read: number[]; text: number[]; face: number[] }>();
  const rows = new Map<string, Tally>();
  const add = (key: string, ok: boolean) => {
    const t = rows.get(key) ?? tally();
    t.n++;
    if (ok) t.ok++;
    rows.set(key, t);
  };
  let wrongPass = 0;
  const refusedBy = new Map<string, number>();
  let standIns = 0;
  let all = 0;
  const misses: string[] = [];
  const scan = async (
    e: ManifestEntry,
    image: Buffer,
    side: 'front' | 'back',
    front: ScanResult | null,
  ) => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await scanSide(reader, textOcr, {
      image,
      side,
      kind: ASKED[e.kind],
      allowed: [ASKED[e.kind]],
      mode: 'live',
      today: TODAY,
      front: front?.evidence ?? null,
    });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    const key = `${e.kind} ${side}`;
    sideTimes.set(key, [...(sideTimes.get(key) ?? []), ms]);
    sideCpu.set(key, [...(sideCpu.get(key) ?? []), cpu]);
    const steps = sideSteps.get(key) ?? { read: [], text: [], face: [] };
    steps.read.push(r.evidence.ms.read);
    steps.text.push(r.evidence.ms.text);
    steps.face.push(r.evidence.ms.face);
    sideSteps.set(key, steps);
    return { r, ms, cpu };
  };
  try {
    // Warm the OCR workers and the face models once, as the server keeps them warm.
    const first = manifest[0]!;
    await scan(first, readFileSync(join(dir, first.file)), 'front', null);
    sideTimes.clear();
    sideCpu.clear();
    sideSteps.clear();
    for (const e of manifest) {
      all++;
      let front: ScanResult | null = null;
      let frontCpu = 0;
      if (e.front) {
        const f = await scan(e, readFileSync(join(dir, e.front)), 'front', null);
        front = f.r;
        frontCpu = f.cpu;
      }
      const { r, ms, cpu } = await scan(
        e,
        readFileSync(join(dir, e.file)),
        e.front ? 'back' : 'front',
        front,
      );
      outcomeTimes.push(ms);
      documentCpu.push(frontCpu + cpu);
      if (r.result === 'read' && r.read.method === 'tesseract') standIns++;
      const success = r.result === 'read';
      const fieldsRead =
        r.fields ??
        (r.read.licence?.data as Record<string, string> | undefined) ??
        r.read.mrz?.data;
      const exactRead =
        fieldsRead !== undefined &&
        JSON.stringify({ ...fieldsRead, documentType: e.expected['documentType'] }) ===
          JSON.stringify(e.expected);
      const exact = success && JSON.stringify(r.fields) === JSON.stringify(e.expected);
      if (success && !exact) wrongPass++;
      const band = e.level === 'heavy' ? 'heavy' : 'clean–moderate';
      if (e.variant === 'valid') {
        // Which checks refused genuine documents, every level (a check must not refuse them).
        for (const c of r.documentChecks ?? [])
          if (c.result === 'failed') refusedBy.set(c.name, (refusedBy.get(c.name) ?? 0) + 1);
        add(`valid ${e.kind} ${e.print} ${e.level}`, exact);
        add(`target ${e.kind} ${e.print} ${band}`, exact);
        add(`read ${e.kind} ${e.print} ${band}`, exactRead);
        if (!exact && e.level !== 'heavy')
          misses.push(
            `${e.id}: ${r.result} ${JSON.stringify((r.documentChecks ?? []).filter((c) => c.result === 'failed'))} ${r.read.unsure ?? ''}`,
          );
      } else if (e.variant === 'broken_check' || e.variant === 'expired') {
        add(`${e.variant} ${e.kind}`, !success);
      } else {
        add(`forged ${e.variant}`, !success);
        const failed = (r.documentChecks ?? [])
          .filter((c) => c.result === 'failed')
          .map((c) => c.name);
        const caught = !success && failed.includes(CAUGHT_BY[e.variant]);
        add(`caught ${e.variant}`, caught);
        if (success) misses.push(`${e.id}: forged and passed`);
        else if (!caught)
          misses.push(
            `${e.id}: refused (${r.result}) but not by its check: ${failed.join(', ') || 'none failed'}`,
          );
      }
    }
  } finally {
    await reader.close();
    await textOcr.close();
    await analyzer.close();
  }
  for (const m of misses) process.stderr.write(`documents: ${m}\n`);
  const out: BenchRow[] = [];
  const s = summarize(outcomeTimes);
  out.push({ name: 'upload → outcome, median', value: s.median, unit: 'ms', target: '< 1500 ms' });
  out.push({ name: 'upload → outcome, p90', value: s.p90, unit: 'ms', target: '< 1500 ms' });
  out.push({
    name: 'CPU a document (every side, all threads), median',
    value: Math.round(summarize(documentCpu).median),
    unit: 'ms',
  });
  for (const [key, times] of [...sideTimes].sort()) {
    out.push({ name: `one side, median: ${key}`, value: summarize(times).median, unit: 'ms' });
    const cpu = summarize(sideCpu.get(key) ?? []).median;
    out.push({ name: `one side, CPU median: ${key}`, value: Math.round(cpu), unit: 'ms' });
    const st = sideSteps.get(key)!;
    const med = (v: number[]) => Math.round(summarize(v).median);
    process.stderr.write(
      `documents: ${key}: steps median read ${med(st.read)} ms, text ${med(st.text)} ms, face ${med(st.face)} ms\n`,
    );
  }
  const sorted = [...rows].sort(([a], [b]) => a.localeCompare(b));
  for (const [key, t] of sorted.filter(([k]) => k.startsWith('valid '))) {
    const heavy = key.endsWith('heavy');
    out.push({
      name: `${key.slice(6)} (${t.n}): scanSuccess, every field exact`,
      value: pct(t),
      unit: '%',
      target: heavy ? (key.includes('passport ocrb') ? '≥ 95%' : '—') : '≥ 98%',
    });
  }
  for (const [key, t] of sorted.filter(([k]) => k.startsWith('target '))) {
    const heavy = key.endsWith('heavy');
    out.push({
      name: `**${key.slice(7)} (${t.n}): scanSuccess, every field exact**`,
      value: pct(t),
      unit: '%',
      target: heavy ? (key.includes('passport ocrb') ? '≥ 95%' : '—') : '≥ 98%',
    });
  }
  for (const [key, t] of sorted.filter(([k]) => k.startsWith('read '))) {
    out.push({
      name: `${key.slice(5)} (${t.n}): zone or barcode read exactly`,
      value: pct(t),
      unit: '%',
    });
  }
  for (const [key, t] of sorted.filter(([k]) => /^(broken_check|expired) /.test(k))) {
    out.push({
      name: `${key} (${t.n}): not scanSuccess`,
      value: pct(t),
      unit: '%',
      target: '100%',
    });
  }
  for (const [key, t] of sorted.filter(([k]) => k.startsWith('forged '))) {
    const caught = rows.get(`caught ${key.slice(7)}`) ?? tally();
    out.push({ name: `**${key} (${t.n}): refused**`, value: pct(t), unit: '%', target: '100%' });
    out.push({
      name: `${key} (${t.n}): its check (${CAUGHT_BY[key.slice(7) as keyof typeof CAUGHT_BY]}) failed`,
      value: pct(caught),
      unit: '%',
    });
  }
  out.push({
    name: `**wrong field passed (all ${all} documents)**`,
    value: wrongPass,
    unit: 'documents',
    target: '0',
  });
  for (const name of Object.values(CAUGHT_BY)
    .filter((n, i, all) => all.indexOf(n) === i)
    .sort())
    out.push({
      name: `genuine documents (every level) refused by ${name}`,
      value: refusedBy.get(name) ?? 0,
      unit: 'documents',
    });
  out.push({
    name: 'reads where tesseract stood in for the glyphs',
    value: standIns,
    unit: 'documents',
  });
  return out;
}
