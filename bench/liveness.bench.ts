/**
 * The server's liveness analysis: model load, time per frame, a whole 10-frame node (analysis of
 * every frame plus the decision), and the decision time after the last frame through the real
 * routes (frames uploaded at the page's pace while the worker analyses them), on the fixtures of
 * `npm run fixtures` (skipped without them); then the presentation-attack figures (APCER per
 * attack type, BPCER) of bench/liveness-pad.ts, whose per-fixture table goes to stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { fixtureEvidence } from '../scripts/fixtures/fixture-frames';
import { FIXTURE_DIR } from '../scripts/fixtures/make-fixtures';
import { FPS } from '../scripts/fixtures/head-scene';
import { WATCH_EVERY_MS, WATCH_MS } from '../scripts/fixtures/simulate-attempts';
import { decideLiveness, type EvidenceFrame } from '../src/server/liveness/decide-liveness';
import type { FaceAnalyzer } from '../src/server/face-analysis/analyzer';
import { createHumanAnalyzer } from '../src/server/face-analysis/human-analyzer';
import { fixtureFrameJpeg, openLivenessApp } from '../src/server/liveness/test-support';
import { padFigures } from './liveness-pad';
import { summarize, type BenchRow } from './types';

/** Time between two frames the page uploads: 10 frames over a 6 s capture. */
const PAGE_FRAME_MS = 600;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function pngToJpegBase64(png: Uint8Array): string {
  const img = PNG.sync.read(Buffer.from(png));
  return Buffer.from(
    jpeg.encode({ data: img.data, width: img.width, height: img.height }, 85).data,
  ).toString('base64');
}

const LIVENESS_NODE = {
  id: 'live',
  type: 'liveness_detection',
  challenges: 3,
  timeoutSeconds: 60,
  outcomes: {
    livenessDetected: 'end',
    deepfakeDetected: 'end',
    noFace: 'end',
    inconclusive: 'end',
  },
};
/** A face_scan without challenges, compared with another photo of her (face_scan.referenceImageKey). */
const FACE_SCAN_NODE = {
  id: 'live',
  type: 'face_scan',
  referenceImageKey: 'referenceImage',
  outcomes: { passed: 'end', notPassed: 'end', error: 'end', cancelled: 'end' },
};

/**
 * What the page sends of `head-loop.y4m` in a face_scan without challenges: the baseline in the
 * frontal hold (0.7 s), then a frame every `WATCH_EVERY_MS` while it watches for a blink (the
 * loop's blink at 2.4 s falls in it). Null without the fixture.
 */
function faceScanFrames(): {
  images: string[];
  labels: EvidenceFrame[];
  session: Record<string, unknown>;
} | null {
  const file = join(FIXTURE_DIR, 'head-loop.y4m');
  const reference = join(FIXTURE_DIR, 'astronaut-rotated.png');
  if (!existsSync(file) || !existsSync(reference)) return null;
  const session = {
    providedData: {
      referenceImage: `data:image/png;base64,${readFileSync(reference).toString('base64')}`,
    },
  };
  const labels: EvidenceFrame[] = [];
  const images: string[] = [];
  for (let t = 700; t <= 700 + WATCH_MS; t += WATCH_EVERY_MS) {
    labels.push({ t, role: t === 700 ? 'baseline' : 'between' });
    images.push(fixtureFrameJpeg('head-loop.y4m', Math.round((t / 1000) * FPS)));
  }
  return { images, labels, session };
}

/**
 * Through the HTTP routes (in-process `inject`, real SQLite file, background worker): frames are
 * uploaded at their labels' times, then `finish`; the figure is the time from `finish` to the
 * attempt answering `decided` (polled every 20 ms; the page polls every 400 ms).
 */
async function decisionAfterLastFrame(
  analyzer: FaceAnalyzer,
  images: string[],
  labels: readonly EvidenceFrame[],
  rounds: number,
  node: Record<string, unknown> = LIVENESS_NODE,
  /** The node's outcome each round must end in (a figure for another outcome would mislead). */
  expected?: string,
  session: Record<string, unknown> = {},
): Promise<number[]> {
  const t = await openLivenessApp({ analyzer });
  const flow = [{ id: 'start', type: 'start', outcome: 'live' }, node, { id: 'end', type: 'end' }];
  const out: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const s = await t.open(flow, 'live', session);
      const start = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
      const base = `/nodes/live/liveness/${start.body.attemptId as string}`;
      const t0 = performance.now();
      for (let k = 0; k < images.length; k++) {
        await sleep(t0 + labels[k]!.t - labels[0]!.t - performance.now());
        const label = labels[k]!;
        const r = await t.client(s.token, 'POST', `${base}/frames`, {
          role: label.role,
          ...(label.challengeIndex !== undefined ? { challengeIndex: label.challengeIndex } : {}),
          t: label.t,
          image: images[k],
        });
        if (r.status !== 202) throw new Error(`frame refused: ${r.raw}`);
      }
      const finishedAt = performance.now();
      await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' });
      for (;;) {
        const polled = await t.client(s.token, 'GET', base);
        if (polled.body.status === 'decided') break;
        if (performance.now() - finishedAt > 60_000) throw new Error('no decision within 60 s');
        await sleep(20);
      }
      out.push(performance.now() - finishedAt);
      if (expected) {
        const session = await t.store.getSessionById(s.sessionId);
        const got = session?.report.nodeReports.find((r) => r.nodeId === 'live')?.outcome;
        if (got !== expected) throw new Error(`the node ended ${String(got)}, not ${expected}`);
      }
    }
  } finally {
    await t.close();
  }
  return out;
}

/** Ten frames of the photo-attack video, or the still astronaut when only the photos exist. */
function benchFrames(): {
  images: Uint8Array[];
  evidence: { frames: readonly EvidenceFrame[] };
} | null {
  const video = join(FIXTURE_DIR, 'photo-attack.y4m');
  if (existsSync(video)) return fixtureEvidence(video, ['turnLeft', 'comeCloser', 'turnRight'], 10);
  const still = join(FIXTURE_DIR, 'astronaut.png');
  if (!existsSync(still)) return null;
  const png = new Uint8Array(readFileSync(still));
  const frames: EvidenceFrame[] = Array.from({ length: 10 }, (_, k) =>
    k === 0
      ? { t: 0, role: 'baseline' }
      : k % 3 === 0
        ? { t: k * PAGE_FRAME_MS, role: 'challenge', challengeIndex: k / 3 - 1 }
        : { t: k * PAGE_FRAME_MS, role: 'between' },
  );
  return { images: frames.map(() => png), evidence: { frames } };
}

export default async function run(): Promise<BenchRow[]> {
  const video = join(FIXTURE_DIR, 'photo-attack.y4m');
  const material = benchFrames();
  if (!material) {
    process.stderr.write('bench liveness: skipped, run `npm run fixtures` first\n');
    return [];
  }
  const analyzer = createHumanAnalyzer();
  const t0 = performance.now();
  await analyzer.load();
  const loadMs = performance.now() - t0;
  const rows: BenchRow[] = [{ name: 'server analysis: model load', value: loadMs, unit: 'ms' }];

  if (existsSync(video)) {
    const { evidence, images } = fixtureEvidence(
      video,
      ['turnLeft', 'comeCloser', 'turnRight'],
      10,
    );
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
    const f = summarize(perFrame);
    const n = summarize(nodes);
    rows.push(
      { name: 'server analysis: first frame', value: firstMs, unit: 'ms' },
      { name: 'server analysis per frame (median)', value: f.median, unit: 'ms' },
      { name: 'server analysis per frame (p90)', value: f.p90, unit: 'ms' },
      {
        name: 'server liveness node, 10 frames (median)',
        value: n.median,
        unit: 'ms',
        target: 'decision ≤ 3 s after the last challenge',
      },
    );
  } else {
    process.stderr.write('bench liveness: photo-attack.y4m missing, per-frame rows skipped\n');
  }

  const jpegs = material.images.map(pngToJpegBase64);
  const decided = summarize(
    await decisionAfterLastFrame(analyzer, jpegs, material.evidence.frames, 5),
  );
  rows.push(
    {
      name: `decision after the last frame, 10 frames at ${PAGE_FRAME_MS} ms (median of 5)`,
      value: decided.median,
      unit: 'ms',
      target: '≤ 3 s after the last challenge',
    },
    { name: 'decision after the last frame (worst of 5)', value: decided.p90, unit: 'ms' },
  );
  const scan = faceScanFrames();
  if (scan) {
    const d = summarize(
      await decisionAfterLastFrame(
        analyzer,
        scan.images,
        scan.labels,
        5,
        FACE_SCAN_NODE,
        'passed',
        scan.session,
      ),
    );
    rows.push(
      {
        name: `face_scan decision after the last of ${scan.images.length} frames, blink watch (median of 5)`,
        value: d.median,
        unit: 'ms',
        target: '≤ 3 s',
      },
      { name: 'face_scan decision after the last frame (worst of 5)', value: d.p90, unit: 'ms' },
    );
  }
  if (!process.env['BENCH_SKIP_PAD']) {
    const pad = await padFigures(analyzer);
    rows.push(...pad.rows);
    process.stderr.write(`${pad.table.join('\n')}\n`);
  }
  await analyzer.close();
  return rows;
}
