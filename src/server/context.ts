import type { Database } from 'better-sqlite3';
import type { Clock } from './clock';
import type { ConditionEvaluator, FieldExtractor, PromptRenderer } from './conversation/types';
import type { GeoLookup } from './client/geo';
import type { RateLimitConfig } from './deps';
import type { Documents } from './documents/service';
import type { ExternalCalls } from './external/external-calls';
import type { Faces } from './faces/faces';
import type { StepGateway } from './flow/gateway';
import type { RateLimiter } from './http/rateLimit';
import type { SessionEraser } from './lifecycle/erase-session';
import type { Liveness } from './liveness/service';
import type { MediaService } from './media/types';
import type { Analyses } from './session-analyses/service';
import type { Mailer, SmsSender } from './otp/types';
import type { SessionTimeouts } from './sessions/timeouts';
import type { AvatarRecord, LangRecord, OtpSendLimits, SessionStore } from './store/types';

/** The avatar and language ids a new session may name, read at most once a second. */
export interface Catalog {
  avatars(): Promise<readonly AvatarRecord[]>;
  langs(): Promise<readonly LangRecord[]>;
  avatarIds(): Promise<ReadonlySet<string>>;
  langIds(): Promise<readonly string[]>;
  /** Both id lists at once: what each `POST /sessions` checks its body against. */
  ids(): Promise<{ avatarIds: ReadonlySet<string>; langIds: readonly string[] }>;
}

/**
 * What every route handler gets: the deps of `createApp` with their defaults filled in, and the
 * services `createApp` builds from them (each is given its dependencies; none makes another).
 */
export interface AppContext {
  store: SessionStore;
  /** The SQLite file of the features' own tables (`AppDeps.db`); none on PostgreSQL. */
  db: Database | undefined;
  clock: Clock;
  /** The one way a feature moves a session (current node, optimistic write, step, refusals). */
  gateway: StepGateway;
  publicUrl: string;
  catalog: Catalog;
  geo: GeoLookup;
  evaluator: ConditionEvaluator;
  renderer: PromptRenderer;
  extractor: FieldExtractor;
  mailer: Mailer;
  sms: SmsSender;
  limiter: RateLimiter | null;
  limits: RateLimitConfig;
  /** When sessions end unopened or idle. */
  timeouts: SessionTimeouts;
  /** Caps on the codes a session may have sent. */
  otpLimits: OtpSendLimits;
  /** Stored media (user photo, screenshots, frames) and their signed URLs. */
  media: MediaService;
  /** Liveness attempts, their analysis jobs and decisions. */
  liveness: Liveness;
  /** face_scan decisions, face_compare, recognition and the known users (docs/faces.md). */
  faces: Faces;
  /** The calls of external_call nodes to the integrators' endpoints (docs/sdk-inputs.md). */
  externalCalls: ExternalCalls;
  /** Document scans: the photos read, the node decided (docs/documents.md). */
  documents: Documents;
  /** Post-session analyses and the session video. */
  analyses: Analyses;
  /** Erases a session, every feature's part of it (docs/lifecycle.md). */
  eraser: SessionEraser;
}

/**
 * A catalog over the store with a one-second memory (wall-clock time, not the injectable clock),
 * so that `POST /sessions` does not read two tables every time; an `idv avatars …` change is
 * seen by new sessions within a second. `GET /avatars` and `GET /langs` read the store directly.
 *
 * @example
 * const catalog = cachedCatalog(store);
 * (await catalog.langIds()).includes('pt'); // true
 */
export function cachedCatalog(store: SessionStore, ttlMs = 1000): Catalog {
  const clock: Clock = { now: () => Date.now() };
  let at = -Infinity;
  let cached: Promise<{
    avatars: readonly AvatarRecord[];
    langs: readonly LangRecord[];
    avatarIds: ReadonlySet<string>;
    langIds: readonly string[];
  }> | null = null;
  const read = () => {
    const now = clock.now();
    if (!cached || now - at >= ttlMs || now < at) {
      at = now;
      cached = Promise.all([store.listAvatars(), store.listLangs()]).then(([a, l]) => ({
        avatars: a,
        langs: l,
        avatarIds: new Set(a.map((x) => x.id)),
        langIds: l.map((x) => x.id),
      }));
      cached.catch(() => {
        cached = null;
      });
    }
    return cached;
  };
  return {
    avatars: async () => (await read()).avatars,
    langs: async () => (await read()).langs,
    avatarIds: async () => (await read()).avatarIds,
    langIds: async () => (await read()).langIds,
    ids: read,
  };
}
