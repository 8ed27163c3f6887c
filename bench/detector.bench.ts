/**
 * The browser's face detector in headless Chromium (Debian's), on this machine: MediaPipe's
 * FaceDetector in VIDEO mode, CPU delegate, the short-range model built by `npm run models`, on
 * Chromium's fake camera playing a face fixture (640×480). Reports the milliseconds per frame
 * (median, p90) over about 90 camera frames, the first frame apart, the detector's start-up time
 * (wasm and model fetched from loopback, graph built) and how many frames had a face. Then, on the
 * looping 3D head (`head-loop.y4m`), what the page reads at each challenge's extreme: the
 * calibration data for the page's thresholds (`BENCH_DETECTOR_CALIBRATION=` skips it).
 *
 * The page is `e2e/detector-page.html`, served with the package's `vision_bundle.mjs`, its wasm
 * and the model by a small loopback server here (no Vite build of a second entry).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFaceModel } from '../scripts/build-face-model';
import { DEBIAN_CHROMIUM } from '../scripts/lib/chromium';
import { faceScale, headPose, type FaceObservation } from '../src/core/liveness';
import {
  FPS,
  FRAME_MARK,
  LOOP_ORDER,
  loopIsFrontal,
  loopWindows,
} from '../scripts/fixtures/head-scene';
import { toFaceObservations, type MediaPipeDetection } from '../src/web/camera/detectionAdapter';
import { summarize, type BenchRow } from './types';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? DEBIAN_CHROMIUM;
const FIXTURE = join(
  ROOT,
  '.tmp/fixtures',
  process.env['BENCH_DETECTOR_FIXTURE'] ?? 'still-photo.y4m',
);
const FRAMES = Number(process.env['BENCH_DETECTOR_FRAMES'] ?? 90);
const RUNS = Number(process.env['BENCH_DETECTOR_RUNS'] ?? 3);
/** The looping 3D head whose poses the page's thresholds are calibrated on; '' skips it. */
const CALIBRATION = process.env['BENCH_DETECTOR_CALIBRATION'] ?? 'head-loop.y4m';
const CALIBRATION_SECONDS = Number(process.env['BENCH_DETECTOR_CALIBRATION_SECONDS'] ?? 22);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.tflite': 'application/octet-stream',
};

/** URL path → file, nothing else: the page's only sources. */
function routes(): (path: string) => string | undefined {
  const wasmDir = join(ROOT, 'node_modules/@mediapipe/tasks-vision/wasm');
  const fixed: Record<string, string> = {
    '/': join(ROOT, 'e2e/detector-page.html'),
    '/vision_bundle.mjs': join(ROOT, 'node_modules/@mediapipe/tasks-vision/vision_bundle.mjs'),
    '/models/face_detector.tflite': join(ROOT, 'public/models/face_detector.tflite'),
  };
  return (path) => {
    if (fixed[path]) return fixed[path];
    if (!path.startsWith('/mediapipe/')) return undefined;
    const file = normalize(join(wasmDir, path.slice('/mediapipe/'.length)));
    return file.startsWith(wasmDir + sep) ? file : undefined;
  };
}

function serve(): Promise<Server> {
  const resolve = routes();
  const server = createServer((req, res) => {
    const file = resolve(new URL(req.url ?? '/', 'http://x').pathname);
    if (!file || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

interface PageResult {
  done: boolean;
  error?: string;
  startupMs?: number;
  firstFrameMs?: number;
  times?: number[];
  faces?: number[];
  width?: number;
  height?: number;
  sample?: MediaPipeDetection[];
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];

/**
 * Runs in the page: the detector as in detector.ts on every camera frame for `seconds`, with the
 * frame index the head fixtures stamp in their corner (read from a canvas copy).
 */
const CALIBRATION_SCRIPT = (seconds: number, mark: typeof FRAME_MARK) => `(async () => {
  const { FaceDetector, FilesetResolver } = await import('/vision_bundle.mjs');
  const video = document.getElementById('video');
  const fileset = await FilesetResolver.forVisionTasks('/mediapipe');
  const detector = await FaceDetector.createFromOptions(fileset, {
    baseOptions: { modelAssetPath: '/models/face_detector.tflite', delegate: 'CPU' },
    runningMode: 'VIDEO',
    minDetectionConfidence: 0.4,
  });
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const m = ${JSON.stringify(mark)};
  const out = [];
  const end = performance.now() + ${seconds * 1000};
  let last = 0;
  await new Promise((resolve) => {
    const onFrame = () => {
      const now = Math.max(performance.now(), last + 1);
      last = now;
      ctx.drawImage(video, 0, 0);
      const row = ctx.getImageData(m.x, m.y + m.cell / 2, m.bits * m.cell, 1).data;
      let index = 0;
      for (let b = 0; b < m.bits; b++) {
        const i = (b * m.cell + m.cell / 2) * 4;
        if (0.299 * row[i] + 0.587 * row[i + 1] + 0.114 * row[i + 2] > 128) index |= 1 << b;
      }
      const r = detector.detectForVideo(video, now);
      out.push({ index, detections: r.detections.map((d) => ({ categories: d.categories.map((c) => ({ score: c.score })), boundingBox: d.boundingBox, keypoints: d.keypoints.map((k) => ({ x: k.x, y: k.y })) })) });
      if (performance.now() >= end) resolve();
      else video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  });
  detector.close();
  return { frames: out, width: video.videoWidth, height: video.videoHeight };
})()`;

interface CalibrationFrame {
  index: number;
  detections: MediaPipeDetection[];
}

/**
 * What the page's detector reads on the looping 3D head at its frontal holds and at each
 * challenge's extreme (the middle 0.6 s of each 1 s hold): median yaw (°, `headPose`), pitch
 * figure and face scale, and their change from the frontal hold: the figures the page's challenge
 * thresholds are set from.
 */
async function calibrate(origin: string, fixture: string): Promise<BenchRow[]> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, `--use-file-for-fake-video-capture=${fixture}`],
  });
  try {
    const page = await browser.newPage();
    // The harness page with a one-frame run opens the camera; the calibration loop follows.
    await page.goto(`${origin}/?frames=1`);
    await page.waitForFunction(
      () => (window as { __bench?: PageResult }).__bench?.done,
      undefined,
      {
        timeout: 120_000,
      },
    );
    const r = (await page.evaluate(CALIBRATION_SCRIPT(CALIBRATION_SECONDS, FRAME_MARK))) as {
      frames: CalibrationFrame[];
      width: number;
      height: number;
    };
    const frame = { width: r.width, height: r.height };
    const windows = loopWindows();
    const phases: { name: string; has: (t: number) => boolean }[] = [
      { name: 'frontal', has: (t) => loopIsFrontal(t) },
      ...LOOP_ORDER.map((c) => ({
        name: c,
        has: (t: number) => t >= windows[c].from + 0.2 && t <= windows[c].to - 0.2,
      })),
    ];
    const rows: BenchRow[] = [];
    const med = (xs: number[]) => summarize(xs).median;
    let frontal: { yaw: number; pitch: number; scale: number } | undefined;
    const name = fixture.split(sep).pop();
    for (const phase of phases) {
      const faces: FaceObservation[] = [];
      let seen = 0;
      for (const f of r.frames) {
        if (!phase.has(f.index / FPS)) continue;
        seen++;
        const [face] = toFaceObservations(f.detections, frame);
        if (face) faces.push(face);
      }
      const poses = faces.map((f) => headPose(f));
      const m = {
        yaw: med(poses.map((p) => p.yawDegrees)),
        pitch: med(poses.map((p) => p.pitch)),
        scale: med(faces.map((f) => faceScale(f, frame))),
        score: med(faces.map((f) => f.score ?? 0)),
        ears: poses.filter((p) => p.earsAgree).length,
      };
      if (phase.name === 'frontal') frontal = m;
      const f0 = frontal ?? m;
      const at = `${name} ${phase.name}`;
      rows.push(
        { name: `${at}: frames with a face (of ${seen})`, value: faces.length, unit: 'frames' },
        { name: `${at}: score, median`, value: m.score, unit: '' },
        {
          name: `${at}: yaw, median (Δ from frontal ${(m.yaw - f0.yaw).toFixed(1)}°)`,
          value: m.yaw,
          unit: '°',
        },
        {
          name: `${at}: pitch, median (Δ ${(m.pitch - f0.pitch).toFixed(3)})`,
          value: m.pitch,
          unit: '',
        },
        {
          name: `${at}: scale, median (× ${(m.scale / f0.scale).toFixed(2)} of frontal)`,
          value: m.scale,
          unit: '',
        },
        { name: `${at}: ears agree`, value: m.ears, unit: 'frames' },
      );
    }
    return rows;
  } finally {
    await browser.close();
  }
}

export default async function detectorBench(): Promise<BenchRow[]> {
  if (!existsSync(CHROMIUM)) {
    return [
      {
        name: `skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`,
        value: 0,
        unit: '',
      },
    ];
  }
  if (!existsSync(FIXTURE)) {
    return [{ name: `skipped: no fixture ${FIXTURE} (npm run fixtures)`, value: 0, unit: '' }];
  }
  buildFaceModel();
  const { chromium } = await import('playwright-core');
  const server = await serve();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, `--use-file-for-fake-video-capture=${FIXTURE}`],
  });
  try {
    const times: number[] = [];
    const startups: number[] = [];
    const firsts: number[] = [];
    let withFace = 0;
    let total = 0;
    let size = '';
    let yaw = NaN;
    // Each run is a fresh context: the start-up includes fetching and compiling the wasm.
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const foreign: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(origin)) foreign.push(r.url());
      });
      await page.goto(`${origin}/?frames=${FRAMES}`);
      await page.waitForFunction(
        () => (window as { __bench?: PageResult }).__bench?.done,
        undefined,
        {
          timeout: 120_000,
        },
      );
      const r = (await page.evaluate(
        () => (window as { __bench?: PageResult }).__bench,
      )) as PageResult;
      await context.close();
      if (r.error) throw new Error(`detector page failed: ${r.error}`);
      if (foreign.length > 0)
        throw new Error(`the page fetched from elsewhere: ${foreign.join(', ')}`);
      times.push(...(r.times ?? []));
      startups.push(r.startupMs ?? NaN);
      firsts.push(r.firstFrameMs ?? NaN);
      withFace += (r.faces ?? []).filter((n) => n > 0).length;
      total += (r.faces ?? []).length;
      size = `${r.width}×${r.height}`;
      // Real detector output through the page's adapter and the core's pose: proves the
      // keypoint order and scaling on a real face, not only on synthetic ones.
      const [face] = toFaceObservations(r.sample ?? [], {
        width: r.width ?? 0,
        height: r.height ?? 0,
      });
      if (face) yaw = headPose(face).yawDegrees;
    }
    const perFrame = summarize(times);
    const fixture = FIXTURE.split(sep).pop();
    const calibrationFile = CALIBRATION ? join(ROOT, '.tmp/fixtures', CALIBRATION) : '';
    const calibration = !calibrationFile
      ? []
      : existsSync(calibrationFile)
        ? await calibrate(origin, calibrationFile)
        : [{ name: `skipped: no ${calibrationFile} (npm run fixtures)`, value: 0, unit: '' }];
    return [
      {
        name: `detector ms per frame, median (${fixture}, ${size})`,
        value: perFrame.median,
        unit: 'ms',
        target: '≤ 15 ms',
      },
      { name: 'detector ms per frame, p90', value: perFrame.p90, unit: 'ms' },
      { name: 'detector first frame', value: summarize(firsts).median, unit: 'ms' },
      {
        name: 'detector start-up (wasm + model + graph), median',
        value: summarize(startups).median,
        unit: 'ms',
      },
      { name: `frames with a face (of ${total})`, value: withFace, unit: 'frames' },
      { name: 'yaw of the last face seen, via the adapter', value: yaw, unit: '°' },
      ...calibration,
    ];
  } finally {
    await browser.close();
    server.close();
  }
}
