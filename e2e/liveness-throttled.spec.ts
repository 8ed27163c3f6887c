import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { FAKE_MEDIA_LAUNCH, startIdv, type IdvServer } from './support/idvServer';
import { ONE_TRY_FACE_SCAN_FLOW } from './support/flows';
import { pool } from './support/pool';
import { frameTiming, summarise } from './support/frameTiming';
import { CAMERA_READY_MS, expectLivenessReady } from './support/pageChecks';

// Slow phones pass (issue 21): every bona fide fixture of `npm run fixtures` played as Chromium's
// camera with the page's CPU throttled 4× (DevTools `Emulation.setCPUThrottlingRate`, set before
// the page loads, so the detector's wasm compiles and runs slowly too) must pass a
// liveness_detection node with one challenge on its first attempt (`maxAttempts: 1`: a retry
// would hide a bona fide failure from the BPCER). The page paces its detector to the device
// (src/web/camera/detectionPace.ts) and holds a met challenge for a few readings. The same for a
// face_scan without challenges, where a slow page must still send a frame of the blink it
// watches for (a frame every 200 ms, or at every slower reading). Two fixtures run at once, each
// in its own browser; nothing waits a fixed time.

const FIXTURES = resolve('.tmp/fixtures');
const BONA_FIDE = [
  'head-loop.y4m',
  'bona-darker.y4m',
  'bona-warmer.y4m',
  'bona-side-light.y4m',
  'bona-farther.y4m',
  'bona-closer.y4m',
  'bona-noisy.y4m',
  'bona-blurred.y4m',
  'bona-jpeg.y4m',
  'bona-lowres.y4m',
  'bona-second-person.y4m',
].filter((f) => !process.env['E2E_FIXTURES'] || process.env['E2E_FIXTURES'].split(',').includes(f));
const THROTTLE = 4;
// E2E_TIMING=1 prints, per fixture, where the time went from the last challenge frame taken to
// the decision seen by the page (support/frameTiming.ts); E2E_FIXTURES=a.y4m,b.y4m runs a subset.
const TIMING = Boolean(process.env['E2E_TIMING']);
test.skip(
  BONA_FIDE.some((f) => !existsSync(join(FIXTURES, f))) && !process.env['REQUIRE_FIXTURES'],
  'no fixtures: run `npm run fixtures`',
);

const livenessFlow = [
  { id: 'start', type: 'start', outcome: 'node' },
  {
    id: 'node',
    type: 'liveness_detection',
    challenges: 1,
    maxAttempts: 1,
    outcomes: {
      livenessDetected: 'passed',
      deepfakeDetected: 'refused',
      noFace: 'refused',
      inconclusive: 'refused',
    },
  },
  { id: 'passed', type: 'end' },
  { id: 'refused', type: 'end' },
];

/** The session of each kind: its flow, and for a face_scan the photo it is compared with. */
const KINDS = {
  liveness: {
    screen: 'liveness-screen',
    body: () => ({ flow: livenessFlow }),
  },
  faceScan: {
    screen: 'face-scan-screen',
    body: (fixture: string) => ({
      flow: ONE_TRY_FACE_SCAN_FLOW,
      providedData: {
        referenceImage: `data:image/png;base64,${readFileSync(
          join(
            FIXTURES,
            fixture === 'bona-second-person.y4m' ? 'grace-hopper.png' : 'astronaut.png',
          ),
        ).toString('base64')}`,
      },
    }),
  },
} as const;

interface NodeReport {
  nodeId: string;
  outcome: string;
  inconclusiveReason?: string;
  report?: {
    challenges?: { challenge: string; met: boolean; value: number; needed: number }[];
    reason?: string;
    similarity?: number;
    capture?: { blink?: { readings: number; ratio: number | null } | null };
  };
}

let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

async function play(fixture: string, kind: keyof typeof KINDS): Promise<NodeReport> {
  const browser = await chromium.launch({
    ...FAKE_MEDIA_LAUNCH,
    args: [
      ...FAKE_MEDIA_LAUNCH.args,
      `--use-file-for-fake-video-capture=${join(FIXTURES, fixture)}`,
    ],
  });
  try {
    const context = await browser.newContext();
    await context.grantPermissions(['camera', 'microphone'], { origin: idv.url });
    const timing = TIMING ? frameTiming(context) : null;
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    const { session, clientSecret } = await idv.createSession(
      { ...KINDS[kind].body(fixture), clientReferenceId: `e2e-throttled-${kind}-${fixture}` },
      idv.keys.live,
    );
    await page.goto(clientSecret.url);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectLivenessReady(page);
    const screen = page.getByTestId(KINDS[kind].screen);
    try {
      await expect(screen).toHaveCount(0, { timeout: 180_000 });
    } catch (error) {
      // Which phase the page stayed in tells a stuck upload from a slow analysis or a problem.
      const phase = await screen.getAttribute('data-phase', { timeout: 1_000 }).catch(() => null);
      throw new Error(`${fixture}: the liveness screen stayed in phase ${phase}`, { cause: error });
    }
    if (timing) {
      const t = await timing.collect(page);
      console.log(`timing ${fixture} ${JSON.stringify({ summary: summarise(t), ...t })}`);
    }
    const s = await idv.getSession(session.id, idv.keys.live);
    const node = (s.report.nodeReports as NodeReport[]).find((r) => r.nodeId === 'node');
    if (!node) throw new Error(`${fixture}: no node report`);
    return node;
  } finally {
    await browser.close();
  }
}

test(`every bona fide fixture passes a challenge on its first attempt at ${THROTTLE}× CPU throttle`, async () => {
  test.setTimeout(Math.ceil(BONA_FIDE.length / 2) * (2 * CAMERA_READY_MS + 180_000));
  const got = await pool(BONA_FIDE, 2, (f) => play(f, 'liveness'));
  const table = got.map((r, k) => ({
    fixture: BONA_FIDE[k],
    outcome: r.outcome,
    reason: r.inconclusiveReason,
    challenges: r.report?.challenges?.map((c) => `${c.challenge} ${c.value}/${c.needed}`),
  }));
  console.log(JSON.stringify(table));
  expect(
    table.map((r) => [r.fixture, r.outcome]),
    JSON.stringify(table, null, 1),
  ).toEqual(BONA_FIDE.map((f) => [f, 'livenessDetected']));
});

// A measurement, not part of `npm test` (E2E_THROTTLED_FACE_SCAN=1 runs it): at 4× throttle the
// page's detector readings can come slower than the blink's closed eyes last, and a fresh-clone CI
// run passed it with a margin of 0.01 (7 watch frames, least opening 0.74 against 0.75); a test that
// close to its line would fail on a busier machine without anything being wrong with the code. The
// runs so far are in docs/liveness-fixtures.md ("A face_scan at 4× throttle").
test(`every bona fide fixture passes a face_scan, its blink seen, on its first attempt at ${THROTTLE}× CPU throttle`, async () => {
  test.skip(!process.env['E2E_THROTTLED_FACE_SCAN'], 'a measurement: E2E_THROTTLED_FACE_SCAN=1');
  test.setTimeout(Math.ceil(BONA_FIDE.length / 2) * (2 * CAMERA_READY_MS + 180_000));
  const got = await pool(BONA_FIDE, 2, (f) => play(f, 'faceScan'));
  const table = got.map((r, k) => ({
    fixture: BONA_FIDE[k],
    outcome: r.outcome,
    reason: r.report?.reason,
    similarity: r.report?.similarity,
    // How many watch frames the slow page sent, and how far its eyes closed (the rule: ≤ 0.75).
    blink: r.report?.capture?.blink
      ? `${r.report.capture.blink.readings} readings, least ${r.report.capture.blink.ratio?.toFixed(2)}`
      : null,
  }));
  console.log(JSON.stringify(table));
  expect(
    table.map((r) => [r.fixture, r.outcome]),
    JSON.stringify(table, null, 1),
  ).toEqual(BONA_FIDE.map((f) => [f, 'passed']));
});
