/**
 * Hosted-page figures, measured in headless Chromium against the real server on loopback:
 * - the gzip size of the JavaScript the first screen needs (every script the browser fetched
 *   before the first screen was shown; the flow core, fetched once that screen is on, is
 *   reported apart), and that none of it is camera-related;
 * - the time from opening the client-secret URL to the first screen being interactive (the
 *   page's `idv:first-screen` performance mark, set when the first step's heading takes the focus,
 *   measured from navigation start), median and p90 over fresh browser contexts.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Response } from 'playwright-core';
import { startIdv } from '../e2e/support/idvServer';
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

export default async function pageBench(): Promise<BenchRow[]> {
  // Measure the page as the sources are now.
  await run(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'],
    {
      cwd: ROOT,
    },
  );
  const idv = await startIdv();
  const browser = await chromium.launch({
    executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
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
        const isCore = (url: string) => /\/flow-[\w-]+\.js$/.test(url);
        firstScreen = sized.filter((s) => s.at <= shownWall && !isCore(s.url));
        alongside = sized.filter((s) => isCore(s.url));
      }
      await context.close();
    }
    const kb = (list: { gzip: number }[]) => list.reduce((n, s) => n + s.gzip, 0) / 1024;
    const camera = firstScreen.filter((s) => CAMERA_RELATED.test(s.url));
    process.stderr.write(
      `page: first-screen scripts: ${firstScreen.map((s) => `${s.url} ${(s.gzip / 1024).toFixed(1)} KB`).join(', ')}\n`,
    );
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
        name: 'flow core, fetched after the first screen (gzip)',
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
