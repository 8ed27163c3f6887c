import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createApp } from './app';
import { geoLookup } from './client/geo';
import { systemClock } from './clock';
import { conversationFromEnv } from './conversation/openai';
import { DEMO_FLOW } from './demo';
import { createApiKey } from './keys';
import { retentionFromEnv, type RetentionSettings } from './lifecycle/retention';
import { pgLifecycle } from './lifecycle/pg-lifecycle';
import { createMediaService, loadOrCreateMediaSecret } from './media';
import {
  describeMediaStore,
  mediaStoreConfigFromEnv,
  openMediaStore,
  type MediaStoreConfig,
} from './media/store-config';
import type { MediaService } from './media/types';
import { fileMailer, smtpMailer } from './otp/mailer';
import { folderSecrets } from './platform-secrets/folder';
import { httpSmsSender, logSmsSender } from './otp/sms';
import { DEFAULT_SESSION_TIMEOUTS, type SessionTimeouts } from './sessions/timeouts';
import { databaseFromEnv, type DatabaseConfig } from './store/databaseUrl';
import { DEFAULT_RATE_LIMITS, type AppDeps } from './deps';
import { pgFaceStore } from './faces/pg-face-store';
import { pgRateLimiter } from './http/pgRateLimit';
import { pgAttemptStore } from './liveness/pg-attempt-store';
import { pgMediaRecords } from './media/pg-records';
import { pgPlatformSecrets } from './platform-secrets/pg';
import { pgAnalysesStore } from './session-analyses/pg-store';
import { openBackend, type Backend } from './backend';
import { startWebhookDelivery } from './webhooks';
import { parseAddressPolicy } from './webhooks/address-policy';
import { DEFAULT_LEASE_MS } from './jobs/worker';

/** The repository root (this file is `src/server/main.ts`). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** `DATABASE_URL`: PostgreSQL, or by default the SQLite file `dbPath`. */
  database: DatabaseConfig;
  dbPath: string;
  /** `DATA_DIR/media`, or an S3-compatible bucket with `MEDIA_S3_BUCKET`. */
  media: MediaStoreConfig;
  webDir: string;
  publicDir: string;
  sessionTimeouts: SessionTimeouts;
  /** Every minute, or as often as the shorter timeout when it is shorter (down to a second). */
  sweepIntervalMs: number;
  /** The `RETENTION_*_DAYS` variables (docs/lifecycle.md). */
  retention: RetentionSettings;
}

/** A duration in milliseconds from the environment: a whole number above 0, or the default. */
function durationEnv(env: Record<string, string | undefined>, name: string, fallback: number) {
  const v = env[name];
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new Error(`${name} must be a whole number of milliseconds above 0 (got ${v})`);
  }
  return n;
}

/**
 * Reads the environment: `PORT` (3000), `HOST` (127.0.0.1), `DATA_DIR` (./data),
 * `DATABASE_URL` (unset: SQLite in `DATA_DIR`), `PUBLIC_URL` (from host and port), `SESSION_IDLE_TIMEOUT_MS` (30 min),
 * `SESSION_UNOPENED_TIMEOUT_MS` (24 h) and the `RETENTION_*_DAYS` (docs/lifecycle.md).
 *
 * @example
 * configFromEnv({ PORT: '8080' }).publicUrl; // 'http://localhost:8080'
 * configFromEnv({ SESSION_IDLE_TIMEOUT_MS: '5000' }).sessionTimeouts.idleMs; // 5000
 */
export function configFromEnv(
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): ServerConfig {
  const port = Number(env['PORT'] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT is not a port: ${env['PORT']}`);
  const host = env['HOST'] || '127.0.0.1';
  const dataDir = resolve(cwd, env['DATA_DIR'] || 'data');
  const sessionTimeouts: SessionTimeouts = {
    idleMs: durationEnv(env, 'SESSION_IDLE_TIMEOUT_MS', DEFAULT_SESSION_TIMEOUTS.idleMs),
    unopenedMs: durationEnv(
      env,
      'SESSION_UNOPENED_TIMEOUT_MS',
      DEFAULT_SESSION_TIMEOUTS.unopenedMs,
    ),
  };
  const shownHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return {
    port,
    host,
    dataDir,
    publicUrl: (env['PUBLIC_URL'] || `http://${shownHost}:${port}`).replace(/\/+$/, ''),
    database: databaseFromEnv(env['DATABASE_URL'], dataDir),
    dbPath: join(dataDir, 'idv.sqlite'),
    media: mediaStoreConfigFromEnv(env, dataDir),
    webDir: join(ROOT, 'dist', 'web'),
    publicDir: join(ROOT, 'public'),
    sessionTimeouts,
    sweepIntervalMs: Math.max(
      1000,
      Math.min(60_000, sessionTimeouts.idleMs, sessionTimeouts.unopenedMs),
    ),
    retention: retentionFromEnv(env),
  };
}

/**
 * Builds the hosted page with Vite when `dist/web` is missing, or was built without the face
 * detector's model and wasm. Those come from `npm run models` into `public/` (git-ignored, so a
 * fresh clone has none); they are made first, then Vite copies them into `dist/web`.
 *
 * @example
 * await ensureWebBuilt('/repo/dist/web', console.error);
 */
export async function ensureWebBuilt(webDir: string, log: (line: string) => void): Promise<void> {
  const needed = [
    'index.html',
    'models/face_detector.tflite',
    'mediapipe/vision_wasm_internal.wasm',
  ];
  const missing = needed.filter((file) => !existsSync(join(webDir, file)));
  if (missing.length === 0) return;
  log(`Building the hosted page (${missing.map((f) => `dist/web/${f}`).join(', ')} missing)…`);
  // Loaded only here: a server whose page is built never needs the model builder.
  const { buildFaceModel } = await import('../../scripts/build-face-model');
  buildFaceModel({ log });
  const require = createRequire(import.meta.url);
  const viteBin = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  await new Promise<void>((ok, fail) => {
    const child = spawn(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? ok() : fail(new Error(`vite build exited with ${code}`)),
    );
  });
}

const intEnv = (env: Record<string, string | undefined>, name: string): number | undefined => {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number`);
  return n;
};

/**
 * Media in `DATA_DIR/media` or a bucket (`cfg.media`), signed with `DATA_DIR/media-signing.key` (kept across restarts,
 * so URLs already sent stay valid). `setOrigin` names the bound port once it is known (PORT=0):
 * the signature covers id and expiry, not the origin.
 */
async function dataDirMedia(
  backend: Backend,
  dataDir: string,
  publicUrl: string,
  storeConfig: MediaStoreConfig,
): Promise<{ service: MediaService; setOrigin(url: string): void; close(): void }> {
  const bytes = await openMediaStore(storeConfig);
  // On PostgreSQL every instance must sign with one key: it lives in the database, not a folder.
  const secrets =
    backend.kind === 'sqlite' ? folderSecrets(dataDir) : pgPlatformSecrets(backend.store.pg);
  const inner = createMediaService({
    ...(backend.kind === 'sqlite'
      ? { db: backend.sqlite }
      : { records: pgMediaRecords(backend.store.pg) }),
    store: bytes.store,
    secret: await loadOrCreateMediaSecret(secrets),
    publicUrl,
  });
  let origin = publicUrl;
  return {
    service: {
      ...inner,
      signedUrl(id) {
        const signed = inner.signedUrl(id);
        return origin === publicUrl
          ? signed
          : { ...signed, url: origin + signed.url.slice(publicUrl.length) };
      },
    },
    setOrigin(url) {
      origin = url;
    },
    close: bytes.close,
  };
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * What the app's features keep beside the core store: on SQLite, their tables in the same file
 * (made from its handle); on PostgreSQL, each feature's store over the shared pool, the rate
 * limits counted there so every instance sees the same counts, and the data lifecycle.
 *
 * @example
 * const app = await createApp({ ...featureStores(backend), store: backend.store, publicUrl });
 */
export function featureStores(backend: Backend): Partial<AppDeps> {
  if (backend.kind === 'sqlite') return { db: backend.sqlite };
  const pg = backend.store.pg;
  return {
    mediaRecords: pgMediaRecords(pg),
    attempts: pgAttemptStore(pg),
    analysesStore: pgAnalysesStore(pg),
    accountSettings: backend.accountSettings,
    faceStore: pgFaceStore(pg),
    lifecycle: pgLifecycle(backend.store),
    webhookStore: backend.webhooks,
    rateLimiter: pgRateLimiter(pg, DEFAULT_RATE_LIMITS.windowMs, () => Date.now()),
  };
}

/**
 * What a process runs: `all` (`idv serve`: the API and the background work), `api`
 * (`idv serve --no-worker`: requests only; jobs and webhook deliveries wait for a worker) or
 * `worker` (`idv worker`: jobs and webhook deliveries, no HTTP).
 */
export type ProcessRole = 'all' | 'api' | 'worker';

interface Runtime {
  app: FastifyInstance;
  media: Awaited<ReturnType<typeof dataDirMedia>>;
  backend: Backend;
  firstStart: boolean;
  stops: (() => Promise<void>)[];
}

/** The store, the app with its services, and the background work `role` runs beside them. */
async function openRuntime(
  cfg: ServerConfig,
  env: Record<string, string | undefined>,
  log: (line: string) => void,
  role: ProcessRole,
): Promise<Runtime> {
  const backend = await openBackend(cfg.database, {
    synchronous: env['SQLITE_SYNCHRONOUS'] === 'FULL' ? 'FULL' : 'NORMAL',
  });
  const store = backend.store;
  const firstStart = (await store.countAccounts()) === 0;
  const smtpUrl = env['SMTP_URL'];
  const smsUrl = env['SMS_HTTP_URL'];
  const media = await dataDirMedia(backend, cfg.dataDir, cfg.publicUrl, cfg.media).catch(
    async (err: unknown) => {
      await backend.close();
      throw err;
    },
  );
  const testLimit = intEnv(env, 'RATE_LIMIT_TEST');
  const liveLimit = intEnv(env, 'RATE_LIMIT_LIVE');
  const app = await createApp({
    store,
    ...featureStores(backend),
    publicUrl: cfg.publicUrl,
    webDir: cfg.webDir,
    publicDir: cfg.publicDir,
    logger: { level: env['LOG_LEVEL'] ?? 'warn' },
    trustProxy: env['TRUST_PROXY'] === 'true',
    geo: geoLookup(),
    ...conversationFromEnv(env),
    mailer: smtpUrl
      ? smtpMailer(smtpUrl, env['MAIL_FROM'] ?? 'Identity verification <no-reply@localhost>')
      : fileMailer(join(cfg.dataDir, 'mail'), log),
    sms: smsUrl
      ? httpSmsSender({
          url: smsUrl,
          ...(env['SMS_HTTP_TOKEN'] ? { token: env['SMS_HTTP_TOKEN'] } : {}),
        })
      : logSmsSender(join(cfg.dataDir, 'sms.log'), log),
    rateLimits: {
      ...(testLimit !== undefined ? { test: testLimit } : {}),
      ...(liveLimit !== undefined ? { live: liveLimit } : {}),
    },
    sessionTimeouts: cfg.sessionTimeouts,
    sweepIntervalMs: cfg.sweepIntervalMs,
    jobLeaseMs: durationEnv(env, 'JOB_LEASE_MS', DEFAULT_LEASE_MS),
    retention: cfg.retention,
    media: media.service,
    // 'manual': the services queue their jobs and never run them; a worker process does.
    ...(role === 'api'
      ? { livenessWorker: 'manual' as const, analysesWorker: 'manual' as const }
      : {}),
    // external_call nodes reach the integrator under the webhooks' address policy.
    externalCalls: { policy: parseAddressPolicy(env['WEBHOOK_ALLOW_PRIVATE']) },
  });

  // What runs beside the API, listed: today the webhook deliveries (the jobs run in the services).
  const stops: (() => Promise<void>)[] =
    role === 'api' ? [] : [await startWebhookDelivery({ backend, clock: systemClock, env, log })];
  return { app, media, backend, firstStart, stops };
}

/**
 * `idv serve`: opens the data folder, builds the page if needed, serves everything on one
 * origin, and on a first start makes a default account, a test key and a demo session. With
 * `role: 'api'` (`--no-worker`) it leaves jobs and webhook deliveries to `idv worker` processes.
 *
 * @example
 * const server = await startServer({ env: process.env, log: console.error });
 */
export async function startServer(opts: {
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  build?: boolean;
  role?: Exclude<ProcessRole, 'worker'>;
}): Promise<RunningServer> {
  const { env, log } = opts;
  const cfg = configFromEnv(env);
  if (opts.build !== false) await ensureWebBuilt(cfg.webDir, log);
  const { app, media, backend, firstStart, stops } = await openRuntime(
    cfg,
    env,
    log,
    opts.role ?? 'all',
  );

  await app.listen({ port: cfg.port, host: cfg.host });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : cfg.port;
  // With PORT=0 the port is known only now; links must name the real one.
  const url = env['PUBLIC_URL'] ? cfg.publicUrl : cfg.publicUrl.replace(/:\d+$/, `:${boundPort}`);
  app.ctx.publicUrl = url;
  media.setOrigin(url);

  if (firstStart) {
    const { key } = await createApiKey(backend.store, {
      accountName: 'default',
      mode: 'test',
      now: Date.now(),
    });
    const res = await app.inject({
      method: 'POST',
      url: '/sessions',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { flow: DEMO_FLOW, clientReferenceId: 'demo', metadata: { source: 'first start' } },
    });
    const demo = res.json() as { clientSecret?: { url: string } };
    log('First start: created the account "default".');
    log(`Test API key (shown once, keep it): ${key}`);
    if (demo.clientSecret) log(`Demo session (test mode, code 000000): ${demo.clientSecret.url}`);
    log(`Try: curl -H "Authorization: Bearer ${key}" ${url}/sessions`);
  }
  log(`Identity verification service on ${url} (data in ${cfg.dataDir})`);
  if (cfg.media.kind === 's3') log(`Media in ${describeMediaStore(cfg.media)}`);

  let closed = false;
  return {
    app,
    url,
    async close() {
      if (closed) return;
      closed = true;
      for (const stop of stops) await stop().catch(() => {});
      await app.close();
      await backend.close();
    },
  };
}

/** A worker process: what `startWorker` started, and how to stop it. */
export interface RunningWorker {
  close(): Promise<void>;
}

/**
 * `idv worker`: runs the jobs (frame analyses, liveness decisions, post-session analyses) and the
 * webhook deliveries of the same store as the API instances, and serves no HTTP, so the CPU-heavy
 * analyses get machines of their own. Any number may run: a job is claimed by one at a time
 * (leases), and one killed mid-job leaves it to another once its lease runs out.
 *
 * @example
 * const worker = await startWorker({ env: process.env, log: console.error });
 * await worker.close();
 */
export async function startWorker(opts: {
  env: Record<string, string | undefined>;
  log: (line: string) => void;
}): Promise<RunningWorker> {
  const cfg = configFromEnv(opts.env);
  const { app, media, backend, stops } = await openRuntime(cfg, opts.env, opts.log, 'worker');
  // The app is built for its services (and their workers); it never listens.
  await app.ready();
  opts.log(`Identity verification worker: jobs and webhook deliveries (data in ${cfg.dataDir})`);
  let closed = false;
  return {
    async close() {
      if (closed) return;
      closed = true;
      for (const stop of stops) await stop().catch(() => {});
      await app.close();
      media.close();
      await backend.close();
    },
  };
}
