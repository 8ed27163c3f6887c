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
import { SERVER_MIGRATIONS } from './features';
import { createApiKey } from './keys';
import { retentionFromEnv, type RetentionSettings } from './lifecycle/retention';
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
import { POSTGRES_NOT_SERVED_YET, databaseFromEnv, type DatabaseConfig } from './store/databaseUrl';
import { openSqliteStore } from './store/sqlite';
import { startWebhookDelivery } from './webhooks';
import { parseAddressPolicy } from './webhooks/address-policy';

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
  db: Parameters<typeof createMediaService>[0]['db'],
  dataDir: string,
  publicUrl: string,
  storeConfig: MediaStoreConfig,
): Promise<{ service: MediaService; setOrigin(url: string): void; close(): void }> {
  const bytes = await openMediaStore(storeConfig);
  const inner = createMediaService({
    db,
    store: bytes.store,
    secret: await loadOrCreateMediaSecret(folderSecrets(dataDir)),
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
 * `idv serve`: opens the data folder, builds the page if needed, serves everything on one
 * origin, and on a first start makes a default account, a test key and a demo session.
 *
 * @example
 * const server = await startServer({ env: process.env, log: console.error });
 */
export async function startServer(opts: {
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  build?: boolean;
}): Promise<RunningServer> {
  const { env, log } = opts;
  const cfg = configFromEnv(env);
  if (cfg.database.kind === 'postgres') throw new Error(POSTGRES_NOT_SERVED_YET);
  const store = openSqliteStore({
    path: cfg.dbPath,
    synchronous: env['SQLITE_SYNCHRONOUS'] === 'FULL' ? 'FULL' : 'NORMAL',
    migrations: SERVER_MIGRATIONS,
  });
  const firstStart = (await store.countAccounts()) === 0;
  if (opts.build !== false) await ensureWebBuilt(cfg.webDir, log);

  const smtpUrl = env['SMTP_URL'];
  const smsUrl = env['SMS_HTTP_URL'];
  const media = await dataDirMedia(store.db, cfg.dataDir, cfg.publicUrl, cfg.media).catch(
    async (err: unknown) => {
      await store.close();
      throw err;
    },
  );
  const testLimit = intEnv(env, 'RATE_LIMIT_TEST');
  const liveLimit = intEnv(env, 'RATE_LIMIT_LIVE');
  const app = await createApp({
    store,
    db: store.db,
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
    retention: cfg.retention,
    media: media.service,
    // external_call nodes reach the integrator under the webhooks' address policy.
    externalCalls: { policy: parseAddressPolicy(env['WEBHOOK_ALLOW_PRIVATE']) },
  });

  // What runs beside the API, listed: today the webhook deliveries.
  const stops: (() => Promise<void>)[] = [
    startWebhookDelivery({ db: store.db, clock: systemClock, env, log }),
  ];

  await app.listen({ port: cfg.port, host: cfg.host });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : cfg.port;
  // With PORT=0 the port is known only now; links must name the real one.
  const url = env['PUBLIC_URL'] ? cfg.publicUrl : cfg.publicUrl.replace(/:\d+$/, `:${boundPort}`);
  app.ctx.publicUrl = url;
  media.setOrigin(url);

  if (firstStart) {
    const { key } = await createApiKey(store, {
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
      media.close();
      await store.close();
    },
  };
}
