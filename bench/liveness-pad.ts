/**
 * The presentation-attack figures of `npm run bench -- liveness` (ISO/IEC 30107-3 terms): each
 * fixture of the attack and bona fide sets (docs/liveness-fixtures.md) sampled as the page sends it,
 * analysed by the server's analyzer with the frame job's cues, then simulated attempts decided by
 * `decideLiveness`: liveness_detection attempts with 1–3 challenges and face_scan captures without
 * one (scripts/fixtures/simulate-attempts.ts; a face_scan's frames, the baseline and the 15 the
 * page takes while watching for a blink, analysed with the iris model as the server does).
 *
 * - APCER of an attack type: the share of its attack presentations (attempts) classified as bona
 *   fide, that is accepted (`livenessDetected`; for face_scan, not refused before the comparison),
 *   as ISO/IEC 30107-3 defines it; apart from it the share not classified as an attack (refused
 *   with a retry reason: a challenge not met, no blink, a timeout), which ISO counts as neither.
 * - BPCER: the share of bona fide presentations classified as an attack; apart from it how many
 *   did not pass for any reason (a challenge the simulation missed, say).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pickChallenges } from '../src/core/liveness';
import { seededRandom } from '../src/core/random';
import type { FaceAnalyzer } from '../src/server/face-analysis/analyzer';
import { faceScanGate } from '../src/server/faces/verdicts';
import { describedAnalysisFor } from '../src/server/liveness/light-frames';
import type { VideoFixture } from '../scripts/fixtures/fixture-types';
import { FIXTURE_DIR, VIDEO_FIXTURES } from '../scripts/fixtures/make-fixtures';
import {
  sampleFixture,
  simulateFaceScan,
  simulateLiveness,
  type Attempt,
} from '../scripts/fixtures/simulate-attempts';
import type { BenchRow } from './types';

/** Attempts simulated per fixture and node kind. */
const ATTEMPTS = Number(process.env['PAD_ATTEMPTS'] ?? 12);
/** Only these fixtures (comma-separated file names), e.g. `PAD_FIXTURES=attack-cutout.y4m`. */
const ONLY = (process.env['PAD_FIXTURES'] ?? '').split(',').filter(Boolean);

interface Tally {
  attempts: number;
  /** Classified as an attack. */
  attack: number;
  /** Passed the node (liveness: livenessDetected; face_scan: no refusal before the comparison). */
  accepted: number;
}

const empty = (): Tally => ({ attempts: 0, attack: 0, accepted: 0 });
const pct = (n: number, of: number) => (of ? (100 * n) / of : 0);

function count(t: Tally, a: Attempt, kind: 'liveness' | 'faceScan'): void {
  t.attempts++;
  if (a.decision.classification === 'attack') t.attack++;
  // A face_scan capture goes on to the comparison unless the gate of src/server/faces/verdicts.ts
  // refuses it (without challenges: an attack, a capture the page never fitted, no face).
  const d = a.decision;
  const accepted =
    kind === 'liveness'
      ? d.outcome === 'livenessDetected'
      : faceScanGate({
          challenges: 0,
          liveness: {
            outcome: d.outcome,
            ...(d.inconclusiveReason ? { inconclusiveReason: d.inconclusiveReason } : {}),
          },
          attack: d.classification === 'attack',
          cameraUnavailable: false,
          expired: false,
          hasFace: d.report.bestFrameIndex !== null,
        }).go;
  if (accepted) t.accepted++;
}

/**
 * Runs the set; returns the bench rows and a markdown table per fixture (for the docs).
 *
 * @example
 * const { rows, table } = await padFigures(analyzer);
 */
export async function padFigures(
  analyzer: FaceAnalyzer,
): Promise<{ rows: BenchRow[]; table: string[] }> {
  const set = VIDEO_FIXTURES.filter(
    (f): f is VideoFixture & { pad: NonNullable<VideoFixture['pad']> } =>
      f.pad !== undefined &&
      (ONLY.length === 0 || ONLY.includes(f.file)) &&
      existsSync(join(FIXTURE_DIR, f.file)),
  );
  if (set.length === 0) return { rows: [], table: [] };
  const byType = new Map<string, { liveness: Tally; faceScan: Tally }>();
  const table = [
    '| fixture | kind | liveness_detection: classified attack / accepted | face_scan: classified attack / accepted | checks that said attack |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const fx of set) {
    const type = 'attack' in fx.pad ? fx.pad.attack : 'bona fide';
    const s = await sampleFixture(
      join(FIXTURE_DIR, fx.file),
      (b) => analyzer.analyze(b),
      // A capture without challenges: every frame with the iris model (light-frames.ts).
      (b) => analyzer.analyze(b, describedAnalysisFor([])),
    );
    const random = seededRandom(21);
    const mine = { liveness: empty(), faceScan: empty() };
    const by = new Map<string, number>();
    for (let i = 0; i < ATTEMPTS; i++) {
      const start = Math.floor(random() * s.grid.length);
      const live = simulateLiveness(fx, s, pickChallenges(1 + (i % 3), random), start);
      const scan = await simulateFaceScan(fx, s, Math.floor(random() * s.grid.length));
      count(mine.liveness, live, 'liveness');
      count(mine.faceScan, scan, 'faceScan');
      for (const a of [live, scan]) {
        for (const c of a.decision.report.presentation?.attackBy ?? []) {
          by.set(c, (by.get(c) ?? 0) + 1);
        }
        if (a.decision.report.motion?.flat && a.decision.classification === 'attack') {
          by.set('flatMotion', (by.get('flatMotion') ?? 0) + 1);
        }
      }
    }
    const total = byType.get(type) ?? { liveness: empty(), faceScan: empty() };
    for (const k of ['liveness', 'faceScan'] as const) {
      total[k].attempts += mine[k].attempts;
      total[k].attack += mine[k].attack;
      total[k].accepted += mine[k].accepted;
    }
    byType.set(type, total);
    const cell = (t: Tally) => `${t.attack}/${t.attempts} / ${t.accepted}/${t.attempts}`;
    table.push(
      `| ${fx.file} | ${type} | ${cell(mine.liveness)} | ${cell(mine.faceScan)} | ${
        [...by].map(([k, v]) => `${k} ${v}`).join(', ') || '–'
      } |`,
    );
  }
  const rows: BenchRow[] = [];
  for (const [type, t] of byType) {
    for (const k of ['liveness', 'faceScan'] as const) {
      const kind = k === 'liveness' ? 'liveness_detection' : 'face_scan';
      const n = t[k].attempts;
      if (type === 'bona fide') {
        rows.push(
          {
            name: `BPCER, ${kind} (${n} bona fide attempts)`,
            value: pct(t[k].attack, n),
            unit: '%',
            target: '≤ 5 %',
          },
          {
            name: `bona fide not passed, any reason, ${kind}`,
            value: pct(n - t[k].accepted, n),
            unit: '%',
          },
        );
      } else {
        rows.push(
          {
            name: `APCER ${type}, ${kind} (${n} attacks, accepted)`,
            value: pct(t[k].accepted, n),
            unit: '%',
            target: '0 %',
          },
          {
            name: `attacks not classified as attack, ${type}, ${kind}`,
            value: pct(n - t[k].attack, n),
            unit: '%',
          },
        );
      }
    }
  }
  return { rows, table };
}
