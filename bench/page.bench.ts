/**
 * Hosted-page figures, measured in headless Chromium against the real server on loopback:
 * - the gzip size of the JavaScript the first screen needs (every script the browser fetched
 *   before the first screen was shown; what comes once that screen is on, until the network is
 *   idle, is reported apart: the screens fetched ahead), and that none of it is camera-related;
 * - the time from opening the client-secret URL to the first screen being interactive (the
 *   page's `idv:first-screen` performance mark, set when the first step's heading takes the focus,
 *   measured from navigation start), median and p90 over fresh browser contexts;
 * - the JavaScript the liveness node loads beyond what the page already had (gzip): its screen
 *   chunk and everything that chunk imports, statically or by `import()` (the MediaPipe bundle),
 *   as the build's manifest lists them, plus MediaPipe's wasm loader scripts, measured on what a
 *   browser with a fake camera really fetched until the face detector was ready; the wasm files
 *   and the model apart.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Response } from 'playwright-core';
import { buildFaceModel } from '../scripts/build-face-model';
import { FAKE_MEDIA_ARGS, startIdv, type IdvServer } from '../e2e/support/idvServer';
import { summarize, type BenchRow } from './types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env['BENCH_PAGE_RUNS'] ?? 15);
const run = promisify(execFile);

const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'mail' } },
  { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'end' } },
  { id: 'end', type: 'end' },
];

const CAMERA_RELATED = /mediapipe|tasks-vision|tflite|wasm|Liveness|FaceScan|DocumentScan/i;

const LIVENESS_FLOW = [
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

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * Every file a chunk of the build brings in: its own, its imports and its `import()`s, short of
 * the page's entry (which the screen imports shared code from, and which is loaded already).
 */
function chunkClosure(manifest: Record<string, ManifestChunk>, key: string): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || chunk.isEntry || seen.has(k)) return;
    seen.add(k);
    files.add(`/${chunk.file}`);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(next);
  };
  visit(key);
  return files;
}

interface Fetched {
  url: string;
  type: string;
  gzip: number;
}

/**
 * Opens a session whose camera node follows a permissions node, lets the browser's fake camera
 * in, and collects every response until the liveness screen's detector is ready.
 */
async function cameraNodeLoad(idv: IdvServer, browser: Browser): Promise<Fetched[]> {
  const { clientSecret } = await idv.createSession({ flow: LIVENESS_FLOW });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.grantPermissions(['camera', 'microphone'], { origin: idv.url });
  const page = await context.newPage();
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  try {
    await page.goto(clientSecret.url);
    await page.getByRole('button', { name: 'Continue' }).click();
    const capture = page.getByTestId('liveness-capture');
    await capture.waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="liveness-capture"]')
          ?.getAttribute('data-detector') !== 'loading',
      undefined,
      { timeout: 30_000 },
    );
    const detector = await capture.getAttribute('data-detector');
    if (detector !== 'ready') throw new Error(`the liveness screen's detector is ${detector}`);
    await page.waitForLoadState('networkidle');
    return await Promise.all(
      responses
        .filter((r) => r.ok() && new URL(r.url()).origin === idv.url)
        .map(async (r) => ({
          url: new URL(r.url()).pathname,
          type: r.request().resourceType(),
          gzip: gzipSync(await r.body()).length,
        })),
    );
  } finally {
    await context.close();
  }
}

export default async function pageBench(): Promise<BenchRow[]> {
  // Measure the page as the sources are now (the detector's model and wasm first, as
  // `npm run build` does); the manifest maps source modules to chunks.
  buildFaceModel();
  await run(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--manifest', '--logLevel', 'error'],
    {
      cwd: ROOT,
    },
  );
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'dist/web/.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const livenessChunks = chunkClosure(
    manifest,
    'src/web/nodes/liveness_detection/LivenessScreen.tsx',
  );
  const idv = await startIdv();
  const browser = await chromium.launch({
    executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
    // A fake camera for the liveness screen; the first-screen runs never ask for it.
    args: FAKE_MEDIA_ARGS,
  });
  try {
    const times: number[] = [];
    let firstScreen: { url: string; gzip: number }[] = [];
    let alongside: { url: string; gzip: number }[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const { clientSecret } = await idv.createSession({ flow: FLOW });
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const scripts: { url: string; at: number; response: Response }[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') {
          scripts.push({ url: new URL(response.url()).pathname, at: Date.now(), response });
        }
      });
      await page.goto(clientSecret.url);
      const shownAt = await page.waitForFunction(
        () => performance.getEntriesByName('idv:first-screen')[0]?.startTime,
        undefined,
        { polling: 'raf' },
      );
      const ms = (await shownAt.jsonValue()) as number;
      const shownWall = Date.now();
      await page.getByRole('button', { name: 'Continue' }).isEnabled();
      // The first run warms the server and the disk cache; it is not counted.
      if (i > 0) times.push(ms);
      if (i === 1) {
        await page.waitForLoadState('networkidle');
        const sized = await Promise.all(
          scripts.map(async (s) => ({
            url: s.url,
            at: s.at,
            gzip: gzipSync(await s.response.body()).length,
          })),
        );
        firstScreen = sized.filter((s) => s.at <= shownWall);
        alongside = sized.filter((s) => s.at > shownWall);
      }
      await context.close();
    }
    const kb = (list: { gzip: number }[]) => list.reduce((n, s) => n + s.gzip, 0) / 1024;
    const camera = firstScreen.filter((s) => CAMERA_RELATED.test(s.url));
    const list = (files: { url: string; gzip: number }[]) =>
      files.map((s) => `${s.url} ${(s.gzip / 1024).toFixed(1)} KB`).join(', ');
    process.stderr.write(`page: first-screen scripts: ${list(firstScreen)}\n`);

    // What the camera node adds: chunks of the liveness screen the first screen did not already
    // bring (shared ones such as React are not counted), and MediaPipe's wasm loaders.
    const before = new Set([...firstScreen, ...alongside].map((s) => s.url));
    const fetched = await cameraNodeLoad(idv, browser);
    const cameraJs = fetched.filter(
      (f) =>
        !before.has(f.url) &&
        (livenessChunks.has(f.url) || (f.url.startsWith('/mediapipe/') && f.url.endsWith('.js'))),
    );
    const cameraBinaries = fetched.filter(
      (f) => f.url.endsWith('.wasm') || f.url.endsWith('.tflite'),
    );
    if (!cameraJs.some((f) => /vision_bundle/.test(f.url))) {
      throw new Error(`the liveness screen did not load MediaPipe: ${list(fetched)}`);
    }
    process.stderr.write(`page: camera-node scripts: ${list(cameraJs)}\n`);
    process.stderr.write(`page: camera-node wasm and model: ${list(cameraBinaries)}\n`);
    const { median, p90 } = summarize(times);
    return [
      {
        name: 'first-screen JavaScript (gzip)',
        value: Number(kb(firstScreen).toFixed(1)),
        unit: 'KB',
        target: '< 150 KB',
      },
      {
        name: 'first-screen scripts that are camera-related',
        value: camera.length,
        unit: 'files',
        target: '0',
      },
      {
        name: 'camera-node JavaScript, loaded with the liveness screen (gzip)',
        value: Number(kb(cameraJs).toFixed(1)),
        unit: 'KB',
      },
      {
        name: 'camera-node wasm and face model (gzip)',
        value: Number(kb(cameraBinaries).toFixed(1)),
        unit: 'KB',
      },
      {
        name: 'JavaScript fetched after the first screen until idle (gzip)',
        value: Number(kb(alongside).toFixed(1)),
        unit: 'KB',
      },
      {
        name: `URL to first screen interactive, median of ${times.length}`,
        value: Math.round(median),
        unit: 'ms',
        target: '< 1000 ms',
      },
      {
        name: `URL to first screen interactive, p90 of ${times.length}`,
        value: Math.round(p90),
        unit: 'ms',
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
