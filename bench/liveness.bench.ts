/**
 * The server's liveness analysis: model load, time per frame, and a whole 10-frame node (analysis
 * of every frame plus the decision), on the fixtures of `npm run fixtures` (skipped without them).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureEvidence } from '../scripts/fixtures/fixture-frames';
import { FIXTURE_DIR } from '../scripts/fixtures/make-fixtures';
import { decideLiveness } from '../src/server/analysis/decide-liveness';
import { createHumanAnalyzer } from '../src/server/analysis/human-analyzer';
import { summarize, type BenchRow } from './types';

export default async function run(): Promise<BenchRow[]> {
  const video = join(FIXTURE_DIR, 'photo-attack.y4m');
  if (!existsSync(video)) {
    process.stderr.write('bench liveness: skipped, run `npm run fixtures` first\n');
    return [];
  }
  const { evidence, images } = fixtureEvidence(video, ['turnLeft', 'comeCloser', 'turnRight'], 10);
  const analyzer = createHumanAnalyzer();
  const t0 = performance.now();
  await analyzer.load();
  const loadMs = performance.now() - t0;
  const first = performance.now();
  await analyzer.analyze(images[0]!);
  const firstMs = performance.now() - first;

  const perFrame: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const img of images) {
      const s = performance.now();
      await analyzer.analyze(img);
      perFrame.push(performance.now() - s);
    }
  }
  const nodes: number[] = [];
  for (let round = 0; round < 3; round++) {
    const s = performance.now();
    const results = [];
    for (const img of images) results.push(await analyzer.analyze(img));
    decideLiveness(evidence, results);
    nodes.push(performance.now() - s);
  }
  await analyzer.close();
  const f = summarize(perFrame);
  const n = summarize(nodes);
  return [
    { name: 'server analysis: model load', value: loadMs, unit: 'ms' },
    { name: 'server analysis: first frame', value: firstMs, unit: 'ms' },
    { name: 'server analysis per frame (median)', value: f.median, unit: 'ms' },
    { name: 'server analysis per frame (p90)', value: f.p90, unit: 'ms' },
    {
      name: 'server liveness node, 10 frames (median)',
      value: n.median,
      unit: 'ms',
      target: 'decision ≤ 3 s after the last challenge',
    },
  ];
}
