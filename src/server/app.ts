import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Job } from './jobs/queue';
import { API_LIMITS, LATEST_VERSION } from '../core/api';
import { geoLookup } from './client/geo';
import { systemClock } from './clock';
import { cachedCatalog, type AppContext } from './context';
import { LocalFieldExtractor } from './conversation/extract';
import { LocalConditionEvaluator, LocalPromptRenderer } from './conversation/local';
import { DEFAULT_RATE_LIMITS, type AppDeps, type RateLimitConfig } from './deps';
import { apiKeyAuth } from './http/auth';
import { ApiError, errorHandler, notFoundHandler } from './http/errors';
import { jsonBodyParser } from './http/jsonBody';
import { serveOpenApi } from './http/openapiDoc';
import { SlidingWindowLimiter } from './http/rateLimit';
import { readVersion } from './http/version';
import {
  createDocumentReader,
  createDocuments,
  createTextOcr,
  type DocumentReader,
  type MrzOcr,
} from './documents';
import { createThreadedAnalyzer } from './face-analysis/threaded-analyzer';
import { createFaces } from './faces';
import { runMigrations } from './store/migrations';
import { createExternalCalls, DEFAULT_EXTERNAL_CALL_CONFIG } from './external/external-calls';
import { createSqliteWebhookStore, WEBHOOK_MIGRATIONS } from './webhooks/sqlite-store';
import { createGateway } from './flow/gateway';
import {
  createRetention,
  createSessionEraser,
  DEFAULT_RETENTION,
  sqliteLifecycle,
  type LifecycleStore,
  type SessionEraser,
} from './lifecycle';
import type { SessionErasureStore } from './store/types';
import { createLiveness, type Liveness } from './liveness';
import { createFsMediaStore, createMediaService, mediaRoutes } from './media';
import { automaticMoves } from './nodes';
import { createAnalyses, type Analyses } from './session-analyses';
import type { MediaRecordStore } from './media/records';
import type { MediaService } from './media/types';
import { DEFAULT_OTP_LIMITS } from './otp/limits';
import type { Mailer, SmsSender } from './otp/types';
import { catalogRoutes } from './routes/catalog';
import { clientRoutes } from './routes/client';
import { pageRoutes } from './routes/page';
import { sessionRoutes } from './routes/sessions';
import { DEFAULT_SESSION_TIMEOUTS } from './sessions/timeouts';
import { createSweeper, type Sweeper } from './sweeper';

declare module 'fastify' {
  interface FastifyInstance {
    /** Ends timed-out sessions; runs on its own every `sweepIntervalMs`. */
    sweeper: Sweeper;
    ctx: AppContext;
    /** Liveness jobs: `drain()` runs the queued ones now (tests), `expireDue()` the timeouts. */
    liveness: Liveness;
    /** Post-session analyses: `drain()` notices ended sessions and runs their jobs now (tests). */
    analyses: Analyses;
  }
}

/** A media service for an app given none: a temporary folder and a key that live as long as it. */
function defaultMedia(
  db: Database | undefined,
  publicUrl: string,
  clock: AppContext['clock'],
  records?: MediaRecordStore,
) {
  const dir = mkdtempSync(join(tmpdir(), 'idv-media-'));
  const media: MediaService = createMediaService({
    ...(db ? { db } : {}),
    ...(records ? { records } : {}),
    store: createFsMediaStore(dir),
    secret: randomBytes(32),
    publicUrl,
    clock,
  });
  return { media, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const refuseDelivery = (what: string) => ({
  async send() {
    throw new Error(`no ${what} configured`);
  },
});

/** The eraser of an app given neither a lifecycle store nor SQLite's: the route answers why. */
const ERASURE_NOT_HERE: SessionEraser = {
  erase: () =>
    Promise.reject(
      new ApiError(
        'api_error',
        'Erasing a session is not available: this app was given no lifecycle store (docs/lifecycle.md).',
      ),
    ),
};

/** SQLite's webhook store over `db`, its tables made if the store was opened without them. */
function sqliteWebhookStore(db: Database) {
  runMigrations(db, WEBHOOK_MIGRATIONS);
  return createSqliteWebhookStore(db);
}

/**
 * Builds the whole HTTP service (public API under `/` and `/v1`, the client API under
 * `/client`, the page and `/openapi.json`) around the given dependencies. It reads no
 * environment and does not listen: tests call `app.inject` or `app.listen` themselves.
 *
 * @example
 * const store = openSqliteStore({ path });
 * const app = await createApp({ store, db: store.db, publicUrl: 'http://127.0.0.1:3000' });
 * await app.listen({ port: 3000, host: '127.0.0.1' });
 */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const limits: RateLimitConfig = { ...DEFAULT_RATE_LIMITS, ...(deps.rateLimits || {}) };
  const limiter =
    deps.rateLimits === false
      ? null
      : (deps.rateLimiter ?? new SlidingWindowLimiter(limits.windowMs, () => clock.now()));
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');
  const db = deps.db;
  // Without the SQLite handle, every feature's store must be given (PostgreSQL).
  const sqlite = (what: string): Database => {
    if (!db) throw new Error(`createApp: ${what} needs its store, or the SQLite \`db\``);
    return db;
  };
  const ownMedia = deps.media
    ? null
    : defaultMedia(
        deps.mediaRecords ? undefined : sqlite('media'),
        publicUrl,
        clock,
        deps.mediaRecords,
      );
  const media = deps.media ?? ownMedia!.media;
  // One analyzer for liveness, faces, documents and the analyses; the app closes it only when it
  // made it.
  const ownAnalyzer = deps.analyzer ? null : createThreadedAnalyzer();
  const analyzer = deps.analyzer ?? ownAnalyzer!;
  // The services are made before the Fastify instance; their jobs log to its logger once it is.
  let logger: FastifyBaseLogger | null = null;
  const jobOptions = {
    ...(deps.jobLeaseMs !== undefined ? { leaseMs: deps.jobLeaseMs } : {}),
    log: (message: string, err?: unknown) => logger?.warn({ err }, message),
    trace: (what: 'start' | 'end', job: Job) =>
      logger?.debug({ job: job.id, kind: job.kind, tries: job.tries }, `job ${what}`),
  };
  const gateway = createGateway({ store: deps.store, clock, automatic: automaticMoves });
  const faces = createFaces({
    store: deps.store,
    gateway,
    ...(deps.faceStore ? { faceStore: deps.faceStore } : { db: sqlite('faces') }),
    media,
    clock,
    analyzer,
  });
  // Erasure and retention run in one transaction over every feature's tables: SQLite's file, or
  // the PostgreSQL database (`deps.lifecycle`).
  const erasure = deps.store.eraseSession && deps.store.listEndedBefore ? deps.store : null;
  const lifecycleStore: LifecycleStore | null =
    deps.lifecycle ??
    (db && erasure
      ? sqliteLifecycle({
          store: erasure as SessionErasureStore,
          db,
          media,
          faces: faces.table,
          ...(deps.faceStore ? { faceStore: deps.faceStore } : {}),
          externalAnalyses: deps.analysesStore !== undefined,
          externalMedia: deps.mediaRecords !== undefined,
        })
      : null);
  // The external calls' allowlist is the accounts' webhook endpoints (docs/sdk-inputs.md).
  const externalCalls = createExternalCalls({
    gateway,
    clock,
    endpoints: deps.webhookStore ?? sqliteWebhookStore(sqlite('external calls')),
    config: { ...DEFAULT_EXTERNAL_CALL_CONFIG, ...deps.externalCalls },
  });
  const liveness = createLiveness({
    store: deps.store,
    gateway,
    faces,
    ...(deps.attempts ? { attempts: deps.attempts } : { db: sqlite('liveness') }),
    // Frames forgotten at the decision in the database's own transaction (PostgreSQL).
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    media,
    clock,
    worker: deps.livenessWorker ?? 'auto',
    analyzer,
    ...jobOptions,
  });
  // The reader's OCR worker starts with the first document photo; most apps never see one.
  let ownReader: DocumentReader | null = null;
  let ownTextOcr: MrzOcr | null = null;
  const documents = createDocuments({
    store: deps.store,
    gateway,
    media,
    clock,
    reader: () =>
      deps.documentReader ??
      (ownReader ??= createDocumentReader({ analyzer: async () => analyzer })),
    textOcr: () => (ownTextOcr ??= createTextOcr()),
  });
  const analyses = createAnalyses({
    store: deps.store,
    gateway,
    ...(db ? { db } : {}),
    attempts: liveness.attempts,
    media,
    clock,
    analyzer,
    worker: deps.analysesWorker ?? deps.livenessWorker ?? 'auto',
    ...jobOptions,
    ...(deps.videoSettleMs !== undefined ? { videoSettleMs: deps.videoSettleMs } : {}),
    ...(deps.deepfakeDetector ? { detector: deps.deepfakeDetector } : {}),
    ...(deps.analysesStore ? { analysesStore: deps.analysesStore } : {}),
    ...(deps.accountSettings ? { settings: deps.accountSettings } : {}),
  });
  const eraser = lifecycleStore
    ? createSessionEraser({ lifecycle: lifecycleStore, media, clock })
    : ERASURE_NOT_HERE;
  const retention = lifecycleStore
    ? createRetention({
        lifecycle: lifecycleStore,
        media,
        eraser,
        clock,
        settings: {
          media: { ...DEFAULT_RETENTION.media, ...deps.retention?.media },
          sessionDays:
            deps.retention?.sessionDays !== undefined
              ? deps.retention.sessionDays
              : DEFAULT_RETENTION.sessionDays,
        },
      })
    : null;
  const ctx: AppContext = {
    store: deps.store,
    db,
    clock,
    gateway,
    publicUrl,
    catalog: cachedCatalog(deps.store),
    geo: deps.geo ?? geoLookup(),
    evaluator: deps.evaluator ?? new LocalConditionEvaluator(),
    renderer: deps.renderer ?? new LocalPromptRenderer(),
    extractor: deps.extractor ?? new LocalFieldExtractor(),
    mailer: deps.mailer ?? (refuseDelivery('mailer') as Mailer),
    sms: deps.sms ?? (refuseDelivery('SMS sender') as SmsSender),
    limiter,
    limits,
    timeouts: { ...DEFAULT_SESSION_TIMEOUTS, ...deps.sessionTimeouts },
    otpLimits: { ...DEFAULT_OTP_LIMITS, ...deps.otpLimits },
    media,
    liveness,
    faces,
    externalCalls,
    documents,
    analyses,
    eraser,
  };

  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: API_LIMITS.maxBodyBytes,
    trustProxy: deps.trustProxy ?? false,
    return503OnClosing: true,
    // The page and API share the origin; bodies are JSON only.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // The original product's SDK joins its base URL and a path by plain concatenation, so a base
    // ending in `/` asks for `//sessions` (docs/sdk-inputs.md, "Paths").
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
  });
  logger = app.log;
  app.decorate('ctx', ctx);
  app.decorate('liveness', liveness);
  app.decorate('analyses', analyses);
  // Declared up front so every request object has the same shape (V8 keeps it fast).
  app.decorateRequest('apiVersion', LATEST_VERSION);
  app.decorateRequest('auth', undefined);
  app.decorateRequest('clientSession', undefined);
  app.decorateRequest('clientMoved', undefined);
  // Only JSON is accepted; any other type is refused as a validation_error.
  app.removeContentTypeParser(['text/plain']);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    jsonBodyParser(app.getDefaultJsonParser('error', 'error')),
  );
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', readVersion);
  // Before any route: the routes' schemas are checked, written and documented from here on.
  await serveOpenApi(app, () => ctx.publicUrl);

  const publicApi = async (scope: FastifyInstance) => {
    scope.addHook('onRequest', apiKeyAuth(ctx.store, limiter, limits));
    sessionRoutes(scope, ctx);
    catalogRoutes(scope, ctx);
  };
  await app.register(publicApi);
  await app.register(publicApi, { prefix: '/v1' });
  // The liveness routes live inside clientRoutes' client-token scope (livenessRoutes).
  await app.register(async (scope) => clientRoutes(scope, ctx), { prefix: '/client' });
  // Signed media URLs carry their own credential: outside the key and token scopes.
  await app.register(async (scope) => mediaRoutes(scope, media, { clock }));

  for (const add of deps.extraRoutes ?? []) await app.register(async (scope) => add(scope));

  await pageRoutes(app, ctx, { webDir: deps.webDir ?? null, publicDir: deps.publicDir ?? null });

  const sweeper = createSweeper(ctx.store, clock, ctx.timeouts, undefined, retention);
  app.decorate('sweeper', sweeper);
  if (deps.sweepIntervalMs && deps.sweepIntervalMs > 0) sweeper.start(deps.sweepIntervalMs);
  app.addHook('onClose', async () => sweeper.stop());
  liveness.run();
  analyses.run();
  app.addHook('onClose', async () => {
    await liveness.close();
    await analyses.close();
    await documents.close();
    await ownReader?.close();
    await ownTextOcr?.close();
    await ownAnalyzer?.close();
    ownMedia?.cleanup();
  });

  await app.ready();
  return app;
}
