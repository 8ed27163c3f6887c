/**
 * How the server runs webhooks: the configuration read from the environment, and one call that
 * starts the dispatcher beside the API on the store's database.
 */
import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock';
import { parseAddressPolicy, type AddressPolicy } from './address-policy';
import {
  createWebhookDispatcher,
  type DispatcherOptions,
  type WebhookDispatcher,
} from './dispatcher';
import { DEFAULT_TIMEOUT_MS, parseRetryDelays } from './retry';
import { createSqliteWebhookStore, watchOutbox } from './sqlite-store';
import type { WebhookStore } from './store';

export interface WebhookConfig {
  retryDelaysMs: number[];
  timeoutMs: number;
  addressPolicy: AddressPolicy;
  concurrency: number;
  perEndpointConcurrency: number;
  pollIntervalMs: number;
}

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number) {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new Error(`${name} must be a positive integer; got ${JSON.stringify(raw)}`);
  }
  return n;
}

/**
 * Reads the webhook settings: `WEBHOOK_RETRY_DELAYS` (ms, comma-separated), `WEBHOOK_TIMEOUT_MS`
 * (10000), `WEBHOOK_ALLOW_PRIVATE` (none | local | all; local), `WEBHOOK_CONCURRENCY` (64),
 * `WEBHOOK_ENDPOINT_CONCURRENCY` (8), `WEBHOOK_POLL_MS` (1000). Throws on a malformed value.
 *
 * @example
 * webhookConfigFromEnv({ WEBHOOK_RETRY_DELAYS: '100,200' }).retryDelaysMs; // [100, 200]
 */
export function webhookConfigFromEnv(env: Record<string, string | undefined>): WebhookConfig {
  return {
    retryDelaysMs: parseRetryDelays(env.WEBHOOK_RETRY_DELAYS),
    timeoutMs: positiveInt(env, 'WEBHOOK_TIMEOUT_MS', DEFAULT_TIMEOUT_MS),
    addressPolicy: parseAddressPolicy(env.WEBHOOK_ALLOW_PRIVATE),
    concurrency: positiveInt(env, 'WEBHOOK_CONCURRENCY', 64),
    perEndpointConcurrency: positiveInt(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 8),
    pollIntervalMs: positiveInt(env, 'WEBHOOK_POLL_MS', 1_000),
  };
}

export interface RunningWebhooks {
  store: WebhookStore;
  dispatcher: WebhookDispatcher;
  /** Stops delivering (attempts in flight finish and are recorded first). */
  stop(): Promise<void>;
}

/**
 * Starts delivering webhooks from the store's outbox. Events written through this same database
 * connection wake the dispatcher at once; those of other processes (the CLI) are found by a poll.
 *
 * @example
 * const webhooks = startWebhookDispatcher({ db: store.db, config: webhookConfigFromEnv(process.env) });
 * // on shutdown, before store.close():
 * await webhooks.stop();
 */
export function startWebhookDispatcher(opts: {
  db: Database;
  config?: Partial<WebhookConfig>;
  clock?: Clock;
  onAttempt?: DispatcherOptions['onAttempt'];
  onError?: DispatcherOptions['onError'];
}): RunningWebhooks {
  const store = createSqliteWebhookStore(opts.db);
  const c = opts.config ?? {};
  const dispatcher = createWebhookDispatcher({
    store,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(c.retryDelaysMs ? { retryDelaysMs: c.retryDelaysMs } : {}),
    ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
    ...(c.addressPolicy ? { addressPolicy: c.addressPolicy } : {}),
    ...(c.concurrency ? { concurrency: c.concurrency } : {}),
    ...(c.perEndpointConcurrency ? { perEndpointConcurrency: c.perEndpointConcurrency } : {}),
    ...(c.pollIntervalMs ? { pollIntervalMs: c.pollIntervalMs } : {}),
    ...(opts.onAttempt ? { onAttempt: opts.onAttempt } : {}),
    ...(opts.onError ? { onError: opts.onError } : {}),
  });
  const unwatch = watchOutbox(opts.db, () => dispatcher.notify());
  dispatcher.start();
  return {
    store,
    dispatcher,
    async stop() {
      unwatch();
      await dispatcher.stop();
    },
  };
}
