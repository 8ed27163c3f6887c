/**
 * Real parts for the liveness tests: the whole app over a SQLite file in a temporary folder,
 * sessions opened through the API, and JPEG frames made from the package-shipped fixture photos.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { readY4m } from '../../../scripts/fixtures/y4m';
import { ASTRONAUT_EYES, closeEyes } from '../../../scripts/lib/eyelids';
import { createApp } from '../app';
import type { AppDeps } from '../deps';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { decodeImage, type RgbImage } from '../face-analysis/image';
import { createApiKey } from '../keys';
import { createFsMediaStore, createMediaService } from '../media';
import type { Migration } from '../store/migrations';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';

export const FIXTURE_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../.tmp/fixtures',
);

/** start → live (liveness_detection) → one end per outcome. */
export const LIVENESS_FLOW: Record<string, unknown>[] = [
  { id: 'start', type: 'start', outcome: 'live' },
  {
    id: 'live',
    type: 'liveness_detection',
    challenges: 2,
    timeoutSeconds: 30,
    // One attempt: its outcome is the node's (RETRY_FLOW gives three).
    maxAttempts: 1,
    outcomes: {
      livenessDetected: 'passed',
      deepfakeDetected: 'fake',
      noFace: 'noface',
      inconclusive: 'unsure',
    },
  },
  { id: 'passed', type: 'end' },
  { id: 'fake', type: 'end' },
  { id: 'noface', type: 'end' },
  { id: 'unsure', type: 'end' },
];

/**
 * `LIVENESS_FLOW` with fields of its liveness node replaced.
 *
 * @example
 * livenessFlow({ challenges: 1, timeoutSeconds: 10 });
 */
export function livenessFlow(node: Record<string, unknown>): Record<string, unknown>[] {
  return LIVENESS_FLOW.map((n) => (n['type'] === 'liveness_detection' ? { ...n, ...node } : n));
}

/** The same node with three attempts: a retryable failure leaves it current. */
export const RETRY_FLOW = livenessFlow({ maxAttempts: 3 });

/** permissions first: the liveness node is not current at the start. */
export const PERMISSIONS_FIRST_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'live', permissionsDenied: 'unsure' },
  },
  ...LIVENESS_FLOW.slice(1),
];

/** The side of the square frames `ONE_FACE_ANALYZER` answers for (`smallJpeg(ONE_FACE_SIZE)`). */
export const ONE_FACE_SIZE = 240;

/**
 * A stand-in analyzer that sees the same frontal face in every frame: for tests of what is kept
 * or forgotten, where no model is needed.
 */
export const ONE_FACE_ANALYZER: FaceAnalyzer = {
  load: async () => {},
  analyze: async () => ({
    width: ONE_FACE_SIZE,
    height: ONE_FACE_SIZE,
    brightness: 128,
    faces: [
      {
        box: { x: 70, y: 50, width: 100, height: 130 },
        score: 0.95,
        keypoints: [
          { x: 100, y: 90 },
          { x: 140, y: 90 },
          { x: 120, y: 115 },
          { x: 120, y: 145 },
          { x: 72, y: 100 },
          { x: 168, y: 100 },
        ],
        embedding: [0.1, 0.2, 0.3, 0.4],
        rotation: { yaw: 0, pitch: 0, roll: 0 },
        real: 0.9,
        live: 0.9,
        age: 30,
        gender: 'unknown',
        genderScore: 0,
      },
    ],
    ms: 1,
  }),
  close: async () => {},
};

export interface LivenessApp {
  app: FastifyInstance;
  store: SqliteSessionStore;
  dir: string;
  keys: { live: string; test: string };
  /** A new session of `flow` (and `body`'s other fields), opened: its id and client token. */
  open(
    flow?: unknown[],
    mode?: 'live' | 'test',
    body?: Record<string, unknown>,
  ): Promise<{ sessionId: string; token: string }>;
  /** A client route with the token: status and parsed JSON. */
  client(
    token: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    // Answers are read field by field in the tests.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; body: any; raw: string }>;
  close(): Promise<void>;
}

/**
 * The app on a fresh SQLite file (opened with the core's migrations, or `options.migrations`),
 * with a live and a test key of one account.
 *
 * @example
 * const t = await openLivenessApp({ livenessWorker: 'manual' });
 * const { token } = await t.open();
 */
export async function openLivenessApp(
  deps: Partial<AppDeps> = {},
  options: { migrations?: readonly Migration[]; mediaDir?: string } = {},
): Promise<LivenessApp> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-liveness-'));
  const store = openSqliteStore({
    path: join(dir, 'idv.sqlite'),
    backgroundCheckpoints: false,
    ...(options.migrations ? { migrations: options.migrations } : {}),
  });
  // A media folder the test names, to look into (default: the app's own temporary one).
  const media = options.mediaDir
    ? createMediaService({
        db: store.db,
        store: createFsMediaStore(options.mediaDir),
        secret: Buffer.alloc(32, 7),
        publicUrl: 'http://idv.test',
        ...(deps.clock ? { clock: deps.clock } : {}),
      })
    : undefined;
  const now = Date.now();
  const live = (await createApiKey(store, { accountName: 'acme', mode: 'live', now })).key;
  const test = (await createApiKey(store, { accountName: 'acme', mode: 'test', now })).key;
  const app = await createApp({
    store,
    db: store.db,
    publicUrl: 'http://idv.test',
    geo: async () => ({}),
    rateLimits: false,
    ...(media ? { media } : {}),
    ...deps,
  });
  return {
    app,
    store,
    dir,
    keys: { live, test },
    async open(flow = LIVENESS_FLOW, mode = 'live', body = {}) {
      const created = await app.inject({
        method: 'POST',
        url: '/sessions',
        headers: { authorization: `Bearer ${mode === 'live' ? live : test}` },
        payload: { ...body, flow },
      });
      if (created.statusCode !== 200) throw new Error(`session not created: ${created.body}`);
      const { session, clientSecret } = created.json() as {
        session: { id: string };
        clientSecret: { secret: string };
      };
      const ex = await app.inject({
        method: 'POST',
        url: '/client/exchange',
        payload: { clientSecret: clientSecret.secret },
      });
      if (ex.statusCode !== 200) throw new Error(`exchange refused: ${ex.body}`);
      return { sessionId: session.id, token: (ex.json() as { token: string }).token };
    },
    async client(token, method, path, body) {
      const r = await app.inject({
        method,
        url: `/client${path}`,
        headers: { authorization: `Bearer ${token}` },
        ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
      });
      let parsed: unknown = null;
      try {
        parsed = r.body ? JSON.parse(r.body) : null;
      } catch {
        parsed = r.body;
      }
      return { status: r.statusCode, body: parsed, raw: r.body };
    },
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The fixture photos these tests read, or the names of those missing. */
export function missingFixtures(files: readonly string[]): string[] {
  return files.filter((f) => !existsSync(join(FIXTURE_DIR, f)));
}

/**
 * A fixture PNG re-encoded as JPEG (the page sends JPEG), base64.
 *
 * @example
 * const image = fixtureJpeg('astronaut.png');
 */
export function fixtureJpeg(file: string, quality = 85): string {
  const png = PNG.sync.read(readFileSync(join(FIXTURE_DIR, file)));
  const out = jpeg.encode({ data: png.data, width: png.width, height: png.height }, quality);
  return Buffer.from(out.data).toString('base64');
}

/** A small grey JPEG, for the routes' checks (no analysis needed). */
export function smallJpeg(size = 16, grey = 128): string {
  const data = Buffer.alloc(size * size * 4, grey);
  return Buffer.from(jpeg.encode({ data, width: size, height: size }, 80).data).toString('base64');
}

/**
 * Frame `n` of a y4m fixture (as Chromium's fake camera plays it) as JPEG, base64, as the page
 * sends it.
 *
 * @example
 * const turned = fixtureFrameJpeg('head-loop.y4m', 27); // her left turn at its peak
 */
export function fixtureFrameJpeg(file: string, n: number, quality = 85): string {
  const video = readY4m(join(FIXTURE_DIR, file));
  try {
    return jpegOfRgb(video.frame(n), quality);
  } finally {
    video.close();
  }
}

/**
 * The astronaut as the page films her while it watches for a blink (astronaut.png, JPEG, base64):
 * eyes open, open, closed (`closeEyes`, painted as the blinking fixtures are), open. The server's
 * iris model reads about 0.38, 0.38, 0.22, 0.38: a blink.
 *
 * @example
 * const frames = blinkingAstronaut(); // baseline, then three watch frames
 */
export function blinkingAstronaut(): string[] {
  const photo = decodeImage(readFileSync(join(FIXTURE_DIR, 'astronaut.png')));
  const open = jpegOfRgb(photo);
  return [open, open, jpegOfRgb(closeEyes(photo, ASTRONAUT_EYES, 1)), open];
}

/** An RGB image as the page sends it: JPEG, base64. */
function jpegOfRgb({ width, height, rgb }: RgbImage, quality = 85): string {
  const data = Buffer.alloc(width * height * 4, 255);
  for (let i = 0; i < width * height; i++) data.set(rgb.subarray(i * 3, i * 3 + 3), i * 4);
  return Buffer.from(jpeg.encode({ data, width, height }, quality).data).toString('base64');
}
