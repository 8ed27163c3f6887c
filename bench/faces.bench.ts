/**
 * Server time per face comparison: the embedding of a reference photo plus the cosine (what a
 * face_scan or face_compare with a new image costs), the cosine alone (an embedding already
 * known), and a 1:N recognition over 1,000 known faces. Then the analyzer in process against the
 * app's, on a thread of its own: time per camera frame and how long the event loop waited
 * meanwhile. On the fixtures of `npm run fixtures` (skipped without them).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FIXTURE_DIR } from '../scripts/fixtures/make-fixtures';
import type { FaceAnalyzer } from '../src/server/face-analysis/analyzer';
import { createHumanAnalyzer } from '../src/server/face-analysis/human-analyzer';
import { createThreadedAnalyzer } from '../src/server/face-analysis/threaded-analyzer';
import { cosineSimilarity } from '../src/server/face-analysis/similarity';
import { mainFace } from '../src/server/face-analysis/main-face';
import { bestKnownMatch } from '../src/server/faces/verdicts';
import { fixtureFrameJpeg, fixtureJpeg } from '../src/server/liveness/test-support';
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
  const idle = await loopWhileIdle(3000);
  const inProcess = await loopDuringAnalyses('in process', createHumanAnalyzer());
  const threaded = await loopDuringAnalyses('on its thread', createThreadedAnalyzer());
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
    { name: 'event-loop delay with nothing to do (the machine), p99', value: idle, unit: 'ms' },
    ...inProcess,
    ...threaded,
  ];
}

/** The event loop's delay p99 in ms over `ms` of doing nothing: what the machine's load adds. */
async function loopWhileIdle(ms: number): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, ms));
  delay.disable();
  return delay.percentile(99) / 1e6;
}

/** Camera frames as the page sends them (640×480 JPEG), the looping head at several poses. */
const CAMERA_FRAMES = [0, 9, 18, 27, 36, 45, 54, 63];
const ROUNDS = Number(process.env['BENCH_FACES_ROUNDS'] ?? 3);

/**
 * Analyses the camera frames one after the other, as the liveness jobs do, while
 * `monitorEventLoopDelay` samples how late the event loop's timers ran: the wait any request,
 * job lease or webhook had meanwhile.
 */
async function loopDuringAnalyses(label: string, analyzer: FaceAnalyzer): Promise<BenchRow[]> {
  const frames = CAMERA_FRAMES.map((n) =>
    Buffer.from(fixtureFrameJpeg('head-loop.y4m', n), 'base64'),
  );
  await analyzer.load();
  await analyzer.analyze(frames[0]!); // warm-up: the first call compiles the wasm kernels
  const wall: number[] = [];
  const inside: number[] = [];
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  for (let round = 0; round < ROUNDS; round++) {
    for (const frame of frames) {
      const t0 = performance.now();
      const r = await analyzer.analyze(frame);
      wall.push(performance.now() - t0);
      inside.push(r.ms);
      // A job's next frame comes by a timer or I/O, as on the server: a turn of the loop, where the
      // monitor's timer can run (back to back in microtasks, the loop never turned at all).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  delay.disable();
  await analyzer.close();
  const ms = (ns: number) => ns / 1e6;
  return [
    {
      name: `camera frame analysed ${label}, median (caller's wait)`,
      value: summarize(wall).median,
      unit: 'ms',
    },
    {
      name: `camera frame analysed ${label}, median (analysis alone)`,
      value: summarize(inside).median,
      unit: 'ms',
    },
    {
      name: `event-loop delay during analyses ${label}, p99`,
      value: ms(delay.percentile(99)),
      unit: 'ms',
    },
    { name: `event-loop delay during analyses ${label}, max`, value: ms(delay.max), unit: 'ms' },
  ];
}
