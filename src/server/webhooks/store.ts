/**
 * What the webhook dispatcher and the `idv webhooks` / `idv events` commands need from storage.
 * The SQLite implementation is in sqlite-store.ts; nothing else in this folder speaks SQL.
 */
import type { OutboxEvent } from './event-types';
import type { AttemptResult, Verdict } from './retry';
import type { SigningSecret } from './secrets';

export type Mode = 'test' | 'live';

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  mode: Mode;
  url: string;
  /** null: every event type. */
  eventTypes: string[] | null;
  secrets: SigningSecret[];
  createdAt: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryView {
  id: string;
  eventId: string;
  endpointId: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
}

export interface EventView {
  id: string;
  type: string;
  accountId: string | null;
  mode: string | null;
  sessionId: string;
  createdAt: number;
  deliveries: DeliveryView[];
}

/** A delivery handed to one dispatcher, with all it needs to make the attempt. */
export interface ClaimedDelivery {
  deliveryId: string;
  /** The number of this attempt (1 = first); also fences a stale result after a re-claim. */
  attempt: number;
  endpointId: string;
  url: string;
  secrets: SigningSecret[];
  event: OutboxEvent;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  startedAt: number;
  finishedAt: number;
  result: AttemptResult;
  verdict: Verdict;
  /** When verdict is 'retry': when the next attempt is due. */
  nextAttemptAt: number | null;
}

export interface AttemptView {
  deliveryId: string;
  attempt: number;
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  verdict: Verdict;
}

export interface ClaimOptions {
  now: number;
  /** Claim at most this many. */
  limit: number;
  /** A claimed delivery is due again at now + leaseMs if its result never comes (a crash). */
  leaseMs: number;
  /** At most this many attempts in flight per endpoint, counting `busy`. */
  perEndpointLimit: number;
  /** Attempts this dispatcher already has in flight, per endpoint id. */
  busy: ReadonlyMap<string, number>;
  /**
   * The most attempts a delivery may have (1 + the retries). A due delivery that already had them
   * all (its last attempt's result was never recorded: the process stopped during it) is marked
   * failed instead of claimed, so the schedule ends even then. Unset: no such bound.
   */
  maxAttempts?: number;
}

export interface WebhookStore {
  addEndpoint(input: {
    accountId: string;
    mode: Mode;
    url: string;
    eventTypes: string[] | null;
    secret: string;
    now: number;
  }): WebhookEndpoint;
  getEndpoint(id: string): WebhookEndpoint | null;
  listEndpoints(filter?: { accountId?: string; mode?: Mode }): WebhookEndpoint[];
  /** Removes the endpoint and its deliveries; false when there was none. */
  removeEndpoint(id: string): boolean;
  /** Replaces the endpoint's secrets (see rotateSecrets); null when there is no such endpoint. */
  setSecrets(id: string, secrets: SigningSecret[]): WebhookEndpoint | null;

  /**
   * Turns outbox events not seen yet into pending deliveries, one per matching endpoint (same
   * account and mode; every endpoint for platform events). Returns how many events it read.
   */
  fanOut(now: number, limit: number): number;
  claimDue(opts: ClaimOptions): ClaimedDelivery[];
  recordAttempts(records: readonly AttemptRecord[]): void;
  /** The earliest time a pending delivery is due, or null when none is pending. */
  nextDueAt(): number | null;

  listEvents(opts: { failedOnly: boolean; limit: number }): EventView[];
  getEvent(id: string): EventView | null;
  listAttempts(eventId: string): AttemptView[];
  /**
   * Sends an event again: its deliveries go back to pending with a fresh schedule, and endpoints
   * that match it but never had it get one. Returns the deliveries queued, or null for no event.
   */
  redeliver(eventId: string, now: number, endpointId?: string): number | null;
}

/**
 * What the dispatcher needs of a webhook store, answered at once (SQLite) or later (PostgreSQL,
 * `PgWebhookStore`): every result may be a promise.
 */
export type DispatchStore = Pick<
  {
    [K in keyof WebhookStore]: (
      ...args: Parameters<WebhookStore[K]>
    ) => Awaitable<ReturnType<WebhookStore[K]>>;
  },
  'fanOut' | 'claimDue' | 'recordAttempts' | 'nextDueAt'
>;

type Awaitable<T> = T | Promise<T>;
