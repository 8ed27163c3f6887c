/**
 * The dispatcher: turns outbox events into deliveries, claims the due ones and POSTs them, signed.
 *
 * Durable: every state lives in the store. A claim is a lease (the delivery is due again after
 * `timeout + leaseMarginMs`), so a dispatcher killed mid-attempt loses nothing: the next one picks
 * the delivery up again (the receiver may then see it twice and de-duplicates by event id).
 */
import { signWebhookPayload, SIGNATURE_HEADER } from '../../sdk/signature';
import { systemClock, type Clock } from '../clock';
import type { AddressPolicy } from './address-policy';
import { webhookBodyBytes } from './event-types';
import { createWebhookAgents, postWebhook, type WebhookAgents } from './http-post';
import {
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_TIMEOUT_MS,
  nextAttemptAt,
  thrownResult,
  verdictOf,
  type AttemptResult,
} from './retry';
import { signingSecretsAt } from './secrets';
import type { AttemptRecord, ClaimedDelivery, DispatchStore } from './store';

export interface DispatcherOptions {
  /** SQLite's store answers at once, PostgreSQL's with promises: the dispatcher awaits both. */
  store: DispatchStore;
  clock?: Clock;
  /** Delays before each retry, in ms. Default 1 min, 5 min, 15 min, 1 h, 6 h. */
  retryDelaysMs?: readonly number[];
  /** How long to wait for a response. Default 10 s. */
  timeoutMs?: number;
  /** Which addresses may be reached. Default `local` (see address-policy.ts). */
  addressPolicy?: AddressPolicy;
  /** Attempts in flight at once, across all endpoints. Default 64. */
  concurrency?: number;
  /** Attempts in flight at once to one endpoint. Default 8. */
  perEndpointConcurrency?: number;
  /** How often to look for what other processes wrote (the CLI, another server). Default 1 s. */
  pollIntervalMs?: number;
  /** Added to the timeout to make a claim's lease. Default 5 s. */
  leaseMarginMs?: number;
  /** Called after each attempt, e.g. for logs and benchmarks. */
  onAttempt?: (info: AttemptRecord & { url: string; eventId: string; type: string }) => void;
  /** Called when the store fails (the dispatcher keeps going at the next poll). */
  onError?: (err: unknown) => void;
}

export interface WebhookDispatcher {
  /** Starts polling and delivering. */
  start(): void;
  /** Says an event was just written: deliver without waiting for the next poll. */
  notify(): void;
  /**
   * Delivers everything due now and waits until those attempts (and any they make due at once)
   * are recorded. For tests driving an injected clock, and for one-shot runs.
   */
  runUntilIdle(): Promise<void>;
  /** Stops claiming, waits for attempts in flight, records them, closes connections. */
  stop(): Promise<void>;
  /** Attempts in flight now. */
  readonly inFlight: number;
}

const USER_AGENT = 'open-idv-webhooks/1';
const FLUSH_AFTER_MS = 5;

/**
 * Creates a dispatcher over a webhook store.
 *
 * @example
 * const d = createWebhookDispatcher({ store, retryDelaysMs: parseRetryDelays(env.WEBHOOK_RETRY_DELAYS) });
 * d.start();
 * sessionStore.onEvent(() => d.notify());
 */
export function createWebhookDispatcher(opts: DispatcherOptions): WebhookDispatcher {
  const store = opts.store;
  const clock = opts.clock ?? systemClock;
  const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy = opts.addressPolicy ?? 'local';
  const concurrency = opts.concurrency ?? 64;
  const perEndpoint = opts.perEndpointConcurrency ?? 8;
  const pollMs = opts.pollIntervalMs ?? 1_000;
  const leaseMs = timeoutMs + (opts.leaseMarginMs ?? 5_000);
  const onError = opts.onError ?? ((err: unknown) => console.error('webhooks:', err));
  const agents: WebhookAgents = createWebhookAgents({ perOrigin: perEndpoint, total: concurrency });

  let running = false;
  let stopped = false;
  let pumpQueued = false;
  // Fan-out runs only when an event may have been written: on a notify and on each poll.
  let fanOutWanted = true;
  let timer: NodeJS.Timeout | null = null;
  const busy = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let pendingRecords: AttemptRecord[] = [];
  let flushTimer: NodeJS.Timeout | null = null;

  const flushes = new Set<Promise<void>>();
  /** Records the results waiting; a synchronous store has them recorded before this returns. */
  const flush = (): Promise<void> => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    const batch = pendingRecords;
    pendingRecords = [];
    let done: Promise<void>;
    try {
      done = Promise.resolve(store.recordAttempts(batch)).catch(onError);
    } catch (err) {
      onError(err);
      return Promise.resolve();
    }
    flushes.add(done);
    void done.finally(() => flushes.delete(done));
    return done;
  };

  const send = async (d: ClaimedDelivery, startedAt: number): Promise<AttemptResult> => {
    const body = webhookBodyBytes(d.event);
    const secrets = signingSecretsAt(d.secrets, startedAt);
    if (secrets.length === 0) {
      return { kind: 'blocked', message: 'the endpoint has no signing secret' };
    }
    return postWebhook({
      url: d.url,
      body,
      timeoutMs,
      policy,
      agents,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        [SIGNATURE_HEADER]: signWebhookPayload({ rawBody: body, secrets, timestamp: startedAt }),
      },
    });
  };

  const attempt = async (d: ClaimedDelivery): Promise<void> => {
    const startedAt = clock.now();
    let result: AttemptResult;
    try {
      result = await send(d, startedAt);
    } catch (err) {
      // Whatever went wrong (a corrupt row, a bug, a value thrown that is not an Error) is a
      // failed attempt, recorded like any other: left unrecorded, the lease would run out and the
      // delivery be claimed again for ever.
      result = thrownResult(err);
    }
    const finishedAt = clock.now();
    const verdict0 = verdictOf(result);
    const next = verdict0 === 'retry' ? nextAttemptAt(d.attempt, finishedAt, delays) : null;
    const verdict = verdict0 === 'retry' && next === null ? 'failed' : verdict0;
    const record: AttemptRecord = {
      deliveryId: d.deliveryId,
      attempt: d.attempt,
      startedAt,
      finishedAt,
      result,
      verdict,
      nextAttemptAt: next,
    };
    pendingRecords.push(record);
    // Results are written in batches, one transaction each: within a few milliseconds, or at once
    // when many are waiting. A crash before that only means the receiver may see them again.
    if (pendingRecords.length >= 64) void flush();
    else flushTimer ??= setTimeout(() => void flush(), FLUSH_AFTER_MS);
    opts.onAttempt?.({ ...record, url: d.url, eventId: d.event.id, type: d.event.type });
  };

  const launch = (d: ClaimedDelivery) => {
    busy.set(d.endpointId, (busy.get(d.endpointId) ?? 0) + 1);
    const p = attempt(d)
      .catch(onError)
      .finally(() => {
        const n = (busy.get(d.endpointId) ?? 1) - 1;
        if (n <= 0) busy.delete(d.endpointId);
        else busy.set(d.endpointId, n);
        inFlight.delete(p);
        // Claiming is a write transaction: take a few slots at a time rather than one by one.
        if (n <= perEndpoint / 2 || inFlight.size === 0) schedulePump();
      });
    inFlight.add(p);
  };

  /** One pass: fan out, then claim as much as the concurrency limits allow. */
  const pass = async () => {
    const now = clock.now();
    try {
      if (fanOutWanted) {
        fanOutWanted = false;
        while ((await store.fanOut(now, 500)) === 500);
      }
      while (inFlight.size < concurrency && !stopped) {
        const claimed = await store.claimDue({
          now,
          limit: concurrency - inFlight.size,
          leaseMs,
          perEndpointLimit: perEndpoint,
          busy,
          maxAttempts: delays.length + 1,
        });
        for (const d of claimed) launch(d);
        if (claimed.length === 0) break;
      }
    } catch (err) {
      onError(err);
    }
  };

  // One pass at a time: a store that answers later must not be asked twice for the same claims.
  // A pump asked for during a pass makes one more pass; awaiting `pump()` waits for that too.
  let pumping: Promise<void> | null = null;
  let again = false;
  const pump = (): Promise<void> => {
    pumpQueued = false;
    if (stopped) return Promise.resolve();
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        await pass();
      } while (again && !stopped);
      pumping = null;
      if (running) await armTimer();
    })();
    return pumping;
  };

  const schedulePump = () => {
    if (pumpQueued || stopped) return;
    pumpQueued = true;
    setImmediate(() => void pump());
  };

  const poll = () => {
    fanOutWanted = true;
    schedulePump();
  };

  /** Sleep until the next delivery is due, or one poll interval, whichever comes first. */
  const armTimer = async () => {
    let wait = pollMs;
    try {
      const due = await store.nextDueAt();
      if (due !== null) wait = Math.min(pollMs, Math.max(0, due - clock.now()));
    } catch (err) {
      onError(err);
    }
    if (timer) clearTimeout(timer);
    if (!running) return;
    timer = setTimeout(poll, wait);
    timer.unref?.();
  };

  return {
    get inFlight() {
      return inFlight.size;
    },
    start() {
      if (running || stopped) return;
      running = true;
      poll();
    },
    notify: poll,
    async runUntilIdle() {
      while (!stopped) {
        if (pumpQueued) await new Promise((r) => setImmediate(r));
        fanOutWanted = true;
        await pump();
        if (inFlight.size === 0) {
          if (pendingRecords.length > 0) await flush();
          await Promise.all([...flushes]);
          const due = await store.nextDueAt();
          if (due === null || due > clock.now()) return;
          continue;
        }
        await Promise.all([...inFlight]);
        await new Promise((r) => setImmediate(r));
        if (pendingRecords.length > 0) await flush();
      }
    },
    async stop() {
      stopped = true;
      running = false;
      if (timer) clearTimeout(timer);
      await pumping;
      await Promise.all([...inFlight]);
      if (pendingRecords.length > 0) void flush();
      await Promise.all([...flushes]);
      agents.destroy();
    },
  };
}
