import type { Promised } from './store/promised';
import type { WebhookStore } from './webhooks/store';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { DeepfakeDetector } from './session-analyses/deepfake';
import type { AccountSettings } from './session-analyses/account-settings';
import type { AnalysesStore } from './session-analyses/store';
import type { FaceStore } from './faces/face-store';
import type { DocumentReader } from './documents/reader';
import type { ExternalCallConfig } from './external/external-calls';
import type { FaceAnalyzer } from './face-analysis/analyzer';
import type { Clock } from './clock';
import type { ConditionEvaluator, FieldExtractor, PromptRenderer } from './conversation/types';
import type { GeoLookup } from './client/geo';
import type { LifecycleStore } from './lifecycle/lifecycle-store';
import type { RetentionSettings } from './lifecycle/retention';
import type { AttemptStore } from './liveness/attempt-types';
import type { MediaRecordStore } from './media/records';
import type { RateLimiter } from './http/rateLimit';
import type { MediaService } from './media/types';
import type { Mailer, SmsSender } from './otp/types';
import type { SessionTimeouts } from './sessions/timeouts';
import type { OtpSendLimits, SessionErasureStore, SessionStore } from './store/types';

export interface RateLimitConfig {
  /** Requests per window for an `sk_test_` key (spec: 100). */
  test: number;
  /** Requests per window for an `sk_live_` key (spec: 1000). */
  live: number;
  /** Requests refused for a bad key that one IP may make per window before it gets 429s. */
  badKeyPerIp: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  test: 100,
  live: 1000,
  badKeyPerIp: 30,
  windowMs: 60_000,
};

/** Everything `createApp` needs; only the entry point reads the environment to fill it. */
export interface AppDeps {
  /** With `SessionErasureStore` (SQLite's), erasure and retention run over `db`. */
  store: SessionStore & Partial<SessionErasureStore>;
  /**
   * The database's part of erasure and retention (docs/lifecycle.md): on PostgreSQL
   * `pgLifecycle(store)`; default: SQLite's over `db` and the store's erasure.
   */
  lifecycle?: LifecycleStore;
  /**
   * The SQLite file the features' own tables live in (media, liveness, analyses, …): the
   * store's own handle, `openSqliteStore(…).db`. On PostgreSQL there is none: each feature's
   * store is given instead (`featureStores` of `backend.ts`).
   */
  db?: Database;
  /** Origin (and optional path) the service is reached at, e.g. `http://localhost:3000`. */
  publicUrl: string;
  clock?: Clock;
  /** Partial overrides of the rate limits; `false` switches them off (benchmarks). */
  rateLimits?: Partial<RateLimitConfig> | false;
  /** Where requests are counted: in this process by default; `pgRateLimiter` shares the counts. */
  rateLimiter?: RateLimiter;
  /** The built hosted page (`dist/web`); without it `/verify` is a 404. */
  webDir?: string | null;
  /** `public/` of the repository, for the avatar images. */
  publicDir?: string | null;
  /** Fastify's logger option. */
  logger?: boolean | Record<string, unknown>;
  /** Trust `X-Forwarded-For` (behind a proxy). */
  trustProxy?: boolean;
  geo?: GeoLookup;
  evaluator?: ConditionEvaluator;
  renderer?: PromptRenderer;
  /** Reads extractionSchema fields from the user's replies (local rules by default). */
  extractor?: FieldExtractor;
  mailer?: Mailer;
  sms?: SmsSender;
  /**
   * When sessions end unopened or idle (default 24 h and 30 min); the entry point reads them from
   * `SESSION_UNOPENED_TIMEOUT_MS` and `SESSION_IDLE_TIMEOUT_MS`.
   */
  sessionTimeouts?: Partial<SessionTimeouts>;
  /** Caps on the codes a session may have sent (default `DEFAULT_OTP_LIMITS`). */
  otpLimits?: Partial<OtpSendLimits>;
  /**
   * How long media and finished sessions are kept (default `DEFAULT_RETENTION`); the entry point
   * reads the `RETENTION_*_DAYS` variables.
   */
  retention?: Partial<RetentionSettings>;
  /** How often the sweeper ends timed-out sessions; 0 leaves it to `app.sweeper.runOnce()`. */
  sweepIntervalMs?: number;
  /**
   * Where media live and how their URLs are signed. Default: a service over the store's SQLite
   * file, a temporary folder removed when the app closes, and a random key (URLs die with the
   * process); `idv serve` gives `DATA_DIR/media` and `DATA_DIR/media-signing.key`.
   */
  media?: MediaService;
  /** The records of the default media service (`pgMediaRecords(pg)`); default: `db`'s. */
  mediaRecords?: MediaRecordStore;
  /** Liveness attempts, frames and their jobs (`pgAttemptStore(pg)`); default: `db`'s tables. */
  attempts?: AttemptStore;
  /**
   * The face analyzer of liveness, faces, documents and the analyses; default:
   * `createThreadedAnalyzer()` (human on a thread of its own), started on first use.
   */
  analyzer?: FaceAnalyzer;
  /** The document reader (tests, bench); default: one over the app's analyzer, made on first use. */
  documentReader?: DocumentReader;
  /**
   * `auto` (default): liveness jobs run in the background as they are queued. `manual`: only
   * `app.liveness.drain()` runs them (tests that step through a decision).
   */
  livenessWorker?: 'auto' | 'manual';
  /** The post-session analyses' jobs (docs/analyses.md); default: as `livenessWorker`. */
  analysesWorker?: 'auto' | 'manual';
  /**
   * How long a claim holds a job (`JOB_LEASE_MS`, default 60 s): a process killed mid-job leaves
   * it to another after this. Above the longest job, or a slow job runs twice.
   */
  jobLeaseMs?: number;
  /** The webhook endpoints (external calls' allowlist); default: SQLite's, over `db`. */
  webhookStore?: Promised<WebhookStore>;
  /** Wait after a session's end before its video frames are analysed (default 3 s). */
  videoSettleMs?: number;
  /** Default: the antispoof + liveness model scores (`modelDeepfakeDetector`). */
  deepfakeDetector?: DeepfakeDetector;
  /** The analyses' tables; default: SQLite's over `db` (PostgreSQL: `pgAnalysesStore`). */
  analysesStore?: AnalysesStore;
  /** Per-account settings; default: SQLite's over `db` (PostgreSQL: `pgAccountSettings`). */
  accountSettings?: AccountSettings;
  /** The face tables, recognition's index among them; default: SQLite's over `db`. */
  faceStore?: FaceStore;
  /** The external_call nodes' address policy, time limit and retries (default: DEFAULT_EXTERNAL_CALL_CONFIG). */
  externalCalls?: Partial<ExternalCallConfig>;
  /** More routes, registered at the root before the app is ready. */
  extraRoutes?: ((app: FastifyInstance) => void | Promise<void>)[];
}
