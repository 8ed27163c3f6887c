/**
 * The browser's face detector in headless Chromium (Debian's), on this machine: MediaPipe's
 * FaceDetector in VIDEO mode, CPU delegate, the short-range model built by `npm run models`, on
 * Chromium's fake camera playing a face fixture (640×480). Reports the milliseconds per frame
 * (median, p90) over about 90 camera frames, the first frame apart, the detector's start-up time
 * (wasm and model fetched from loopback, graph built) and how many frames had a face.
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
import { headPose } from '../src/core/liveness';
import { toFaceObservations, type MediaPipeDetection } from '../src/web/camera/detectionAdapter';
import { summarize, type BenchRow } from './types';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FIXTURE = join(
  ROOT,
  '.tmp/fixtures',
  process.env['BENCH_DETECTOR_FIXTURE'] ?? 'still-photo.y4m',
);
const FRAMES = Number(process.env['BENCH_DETECTOR_FRAMES'] ?? 90);
const RUNS = Number(process.env['BENCH_DETECTOR_RUNS'] ?? 3);

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
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${FIXTURE}`,
    ],
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
    ];
  } finally {
    await browser.close();
    server.close();
  }
}
