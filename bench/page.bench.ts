/**
 * `npm run bench -- page`: the hosted page as a phone gets it. Headless Chromium against the real
 * server (`idv serve` on loopback, the page as `npm run build` makes it), each run in a fresh
 * browser context (an empty cache), with the DevTools protocol's emulation of a phone: network
 * 10 Mbit/s down and up with 40 ms of latency (`Network.emulateNetworkConditions`) and the CPU
 * slowed 4× (`Emulation.setCPUThrottlingRate`). The flow is start → permissions → liveness.
 *
 * - Bytes on the wire: `encodedDataLength` of each response (headers and the compressed body as
 *   sent), summed by phase: until the first screen is interactive; while the user reads it (until
 *   the network is idle: the next screen and the face detector prefetched); after the click until
 *   the camera step is ready.
 * - First screen interactive: the page's `idv:first-screen` mark (the first step's heading takes the
 *   focus), from navigation start.
 * - Camera ready after the click on the first screen's button: until the liveness capture has the
 *   camera live and the face detector ready. Twice: after the user read the first screen (the
 *   prefetch done) and with a click as soon as the screen is interactive (nothing prefetched yet).
 *
 * `BENCH_PAGE_RUNS` runs of each (5 unless set); medians and p90 are printed.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildFaceModel } from '../scripts/build-face-model';
import { chromiumExecutable } from '../scripts/lib/chromium';
import { FAKE_MEDIA_ARGS, startIdv, type IdvServer } from '../e2e/support/idvServer';
import { summarize, type BenchRow } from './types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env['BENCH_PAGE_RUNS'] ?? 5);
const run = promisify(execFile);

/** A phone on a good mobile connection: 10 Mbit/s each way, 40 ms round trip; a 4× slower CPU. */
export const PHONE = { mbitPerSecond: 10, latencyMs: 40, cpuSlowdown: 4 };

const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'live' } },
  {
    id: 'live',
    type: 'liveness_detection',
    outcomes: {
      livenessDetected: 'end',
      deepfakeDetected: 'end',
      noFace: 'end',
      inconclusive: 'end',
    },
  },
  { id: 'end', type: 'end' },
];

/** Bytes on the wire of every response that finished loading, with when it finished. */
async function wireMeter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const bytesPerSecond = (PHONE.mbitPerSecond * 1_000_000) / 8;
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
  const urls = new Map<string, string>();
  const done: { url: string; bytes: number; at: number }[] = [];
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    const url = urls.get(e.requestId) ?? '';
    if (!url.startsWith('data:')) done.push({ url, bytes: e.encodedDataLength, at: Date.now() });
  });
  return {
    /** Bytes of the responses that finished in [from, to). */
    between(from: number, to: number) {
      const list = done.filter((d) => d.at >= from && d.at < to);
      return { bytes: list.reduce((n, d) => n + d.bytes, 0), list };
    },
  };
}

/** What belongs to the camera step, never to the first screen. */
const CAMERA_RELATED = /mediapipe|tasks-vision|vision_bundle|tflite|\.wasm|Liveness|FaceScan/i;

interface Run {
  firstScreenMs: number;
  /** Responses before the first screen was interactive that belong to the camera step. */
  cameraEarly: string[];
  firstScreenBytes: number;
  readingBytes: number;
  afterClickBytes: number;
  cameraReadyMs: number;
  largest: string;
}

/**
 * One session on a fresh context: the first screen, then (after reading it until the network is
 * idle, or at once) the click that leads to the camera step.
 */
async function oneRun(idv: IdvServer, browser: Browser, read: boolean): Promise<Run> {
  const { clientSecret } = await idv.createSession({ flow: FLOW });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.grantPermissions(['camera', 'microphone'], { origin: idv.url });
  const page = await context.newPage();
  try {
    const meter = await wireMeter(page);
    const start = Date.now();
    await page.goto(clientSecret.url, { waitUntil: 'commit' });
    const mark = await page.waitForFunction(
      () => performance.getEntriesByName('idv:first-screen')[0]?.startTime,
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const firstScreenMs = (await mark.jsonValue()) as number;
    const interactive = Date.now();
    if (read) await page.waitForLoadState('networkidle');
    const clicked = Date.now();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForFunction(
      () => {
        const capture = document.querySelector('[data-testid="liveness-capture"]');
        const detector = capture?.getAttribute('data-detector');
        if (detector === 'failed') throw new Error('the face detector failed to load');
        return capture?.getAttribute('data-camera') === 'live' && detector === 'ready';
      },
      undefined,
      { polling: 'raf', timeout: 120_000 },
    );
    const ready = Date.now();
    const after = meter.between(clicked, ready + 1);
    const all = meter.between(start, ready + 1).list.sort((a, b) => b.bytes - a.bytes);
    const first = meter.between(start, interactive + 1);
    return {
      firstScreenMs,
      cameraEarly: first.list.map((d) => d.url).filter((u) => CAMERA_RELATED.test(u)),
      firstScreenBytes: first.bytes,
      readingBytes: meter.between(interactive + 1, clicked).bytes,
      afterClickBytes: after.bytes,
      cameraReadyMs: ready - clicked,
      largest: all
        .slice(0, 4)
        .map((d) => `${new URL(d.url).pathname} ${(d.bytes / 1024).toFixed(0)} KB`)
        .join(', '),
    };
  } finally {
    await context.close();
  }
}

export default async function pageBench(): Promise<BenchRow[]> {
  // The page as `npm run build` makes it (the detector's files first), compressed copies and all.
  buildFaceModel();
  await run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: ROOT,
  });
  const idv = await startIdv();
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: FAKE_MEDIA_ARGS,
  });
  try {
    // One run first to warm the server and the disk (not counted).
    await oneRun(idv, browser, true);
    const readRuns: Run[] = [];
    const coldRuns: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      readRuns.push(await oneRun(idv, browser, true));
      coldRuns.push(await oneRun(idv, browser, false));
    }
    process.stderr.write(`page: largest responses of a run: ${readRuns[0]?.largest}\n`);
    const med = (runs: Run[], f: (r: Run) => number) => summarize(runs.map(f)).median;
    const p90 = (runs: Run[], f: (r: Run) => number) => summarize(runs.map(f)).p90;
    const kb = (n: number) => Number((n / 1024).toFixed(1));
    const mb = (n: number) => Number((n / 1024 / 1024).toFixed(2));
    const n = `median of ${RUNS}`;
    const cameraStep = (r: Run) => r.readingBytes + r.afterClickBytes;
    return [
      {
        name: `first screen, bytes on the wire (${n})`,
        value: kb(med(readRuns, (r) => r.firstScreenBytes)),
        unit: 'KB',
        target: '≤ 150 KB',
      },
      {
        name: 'camera-step responses loaded before the first screen was interactive (all runs)',
        value: [...readRuns, ...coldRuns].reduce((k, r) => k + r.cameraEarly.length, 0),
        unit: 'files',
        target: '0',
      },
      {
        name: `first screen interactive from navigation (${n})`,
        value: Math.round(med([...readRuns, ...coldRuns], (r) => r.firstScreenMs)),
        unit: 'ms',
        target: '< 1500 ms',
      },
      {
        name: 'first screen interactive, p90',
        value: Math.round(p90([...readRuns, ...coldRuns], (r) => r.firstScreenMs)),
        unit: 'ms',
      },
      {
        name: `camera step, bytes on the wire: prefetched while reading + after the click (${n})`,
        value: mb(med(readRuns, cameraStep)),
        unit: 'MB',
        target: '≤ 3.5 MB',
      },
      {
        name: `  of which after the click (${n})`,
        value: kb(med(readRuns, (r) => r.afterClickBytes)),
        unit: 'KB',
      },
      {
        name: `camera ready after the click, first screen read (${n})`,
        value: Math.round(med(readRuns, (r) => r.cameraReadyMs)),
        unit: 'ms',
        target: '< 4000 ms',
      },
      {
        name: 'camera ready after the click, first screen read, p90',
        value: Math.round(p90(readRuns, (r) => r.cameraReadyMs)),
        unit: 'ms',
      },
      {
        name: `camera ready after a click at once, nothing prefetched yet (${n})`,
        value: Math.round(med(coldRuns, (r) => r.cameraReadyMs)),
        unit: 'ms',
      },
      {
        name: `camera step bytes with a click at once (${n})`,
        value: mb(med(coldRuns, cameraStep)),
        unit: 'MB',
      },
    ];
  } finally {
    await browser.close();
    await idv.stop();
  }
}

// `tsx bench/page.bench.ts` runs this suite alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await pageBench())
    console.log(`${row.name}: ${row.value} ${row.unit} ${row.target ?? ''}`);
}
