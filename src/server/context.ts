import type { Clock } from './clock';
import type { ConditionEvaluator, PromptRenderer } from './conversation/types';
import type { GeoLookup } from './client/geo';
import type { RateLimitConfig } from './deps';
import type { SlidingWindowLimiter } from './http/rateLimit';
import type { Mailer, SmsSender } from './otp/types';
import type { SessionStore } from './store/types';

/** The avatar and language ids a new session may name, read at most once a second. */
export interface Catalog {
  avatarIds(): Promise<ReadonlySet<string>>;
  langIds(): Promise<readonly string[]>;
}

/** What every route handler gets: the deps of `createApp` with their defaults filled in. */
export interface AppContext {
  store: SessionStore;
  clock: Clock;
  publicUrl: string;
  catalog: Catalog;
  geo: GeoLookup;
  evaluator: ConditionEvaluator;
  renderer: PromptRenderer;
  mailer: Mailer;
  sms: SmsSender;
  limiter: SlidingWindowLimiter | null;
  limits: RateLimitConfig;
}

/**
 * A catalog over the store with a one-second memory, so that `POST /sessions` does not read two
 * tables every time, and an `idv avatars …` change is seen within a second.
 *
 * @example
 * const catalog = cachedCatalog(store, systemClock);
 * (await catalog.langIds()).includes('pt'); // true
 */
export function cachedCatalog(store: SessionStore, clock: Clock, ttlMs = 1000): Catalog {
  let at = -Infinity;
  let cached: Promise<{ avatars: ReadonlySet<string>; langs: readonly string[] }> | null = null;
  const read = () => {
    const now = clock.now();
    if (!cached || now - at >= ttlMs || now < at) {
      at = now;
      cached = Promise.all([store.listAvatars(), store.listLangs()]).then(([a, l]) => ({
        avatars: new Set(a.map((x) => x.id)),
        langs: l.map((x) => x.id),
      }));
      cached.catch(() => {
        cached = null;
      });
    }
    return cached;
  };
  return {
    avatarIds: async () => (await read()).avatars,
    langIds: async () => (await read()).langs,
  };
}
