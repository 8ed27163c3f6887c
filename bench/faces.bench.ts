/**
 * Server time per face comparison: the embedding of a reference photo plus the cosine (what a
 * face_scan or face_compare with a new image costs), the cosine alone (an embedding already
 * known), and a 1:N recognition over 1,000 known faces. On the fixtures of `npm run fixtures`
 * (skipped without them).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_DIR } from '../scripts/fixtures/make-fixtures';
import { createHumanAnalyzer } from '../src/server/face-analysis/human-analyzer';
import { cosineSimilarity } from '../src/server/face-analysis/similarity';
import { mainFace } from '../src/server/face-analysis/main-face';
import { bestKnownMatch } from '../src/server/faces/verdicts';
import { fixtureJpeg } from '../src/server/liveness/test-support';
import { summarize, type BenchRow } from './types';

export default async function facesBench(): Promise<BenchRow[]> {
  if (!['astronaut.png', 'camera.png'].every((f) => existsSync(join(FIXTURE_DIR, f)))) {
    process.stderr.write('bench faces: fixtures missing (npm run fixtures), skipped\n');
    return [];
  }
  const analyzer = createHumanAnalyzer();
  const reference = Buffer.from(fixtureJpeg('astronaut.png'), 'base64');
  const capture = mainFace(
    await analyzer.analyze(Buffer.from(fixtureJpeg('camera.png'), 'base64')),
  );
  if (!capture) throw new Error('no face in camera.png');
  await analyzer.analyze(reference); // warm-up: the first call compiles the wasm kernels

  const withEmbedding: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    const face = mainFace(await analyzer.analyze(reference));
    cosineSimilarity(face!.embedding, capture.embedding);
    withEmbedding.push(performance.now() - t0);
  }
  await analyzer.close();

  const a = capture.embedding;
  const b = a.map((v, i) => v * (1 + ((i % 7) - 3) / 50));
  const n = 20_000;
  const t0 = performance.now();
  let sink = 0;
  for (let i = 0; i < n; i++) sink += cosineSimilarity(a, b);
  const cosineUs = ((performance.now() - t0) / n) * 1000;
  if (!Number.isFinite(sink)) throw new Error('cosine gave a non-number');

  const known = Array.from({ length: 1000 }, (_, k) => ({
    sessionId: `s${k}`,
    clientReferenceId: `u${k}`,
    embedding: Float32Array.from(a, (v, i) => v * Math.cos(k + i)),
  }));
  const oneToN: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t1 = performance.now();
    bestKnownMatch(a, known, 0.55);
    oneToN.push(performance.now() - t1);
  }

  const e = summarize(withEmbedding);
  return [
    {
      name: 'comparison with a new image (embedding + cosine), median',
      value: e.median,
      unit: 'ms',
    },
    { name: 'comparison with a new image (embedding + cosine), p90', value: e.p90, unit: 'ms' },
    { name: 'cosine alone (1024 values)', value: cosineUs, unit: 'µs' },
    {
      name: 'recognition 1:N over 1,000 known faces, median',
      value: summarize(oneToN).median,
      unit: 'ms',
    },
  ];
}
