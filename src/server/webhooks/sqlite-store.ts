/**
 * The webhook tables in SQLite (better-sqlite3), beside the store's `events` outbox:
 * endpoints, one delivery per event × endpoint, and a log of every attempt.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { onOutboxCommit } from '../store/outboxWake';
import type { Migration } from '../store/migrations';
import { describeResult } from './retry';
import {
  matches,
  toDelivery,
  toEndpoint,
  toOutbox,
  type DeliveryRow,
  type EndpointRow,
  type EventRow,
} from './rows';
import type { SigningSecret } from './secrets';
import type { AttemptView, ClaimedDelivery, EventView, WebhookStore } from './store';

/**
 * The webhook schema, registered with the store's migration runner (see register.ts) so it runs
 * once, in order, after the core migration that creates the `events` outbox.
 */
export const WEBHOOK_MIGRATIONS: readonly Migration[] = [
  { id: 'webhooks_0001_init', up: (db) => db.exec(SCHEMA_1) },
];

const SCHEMA_1 = `
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  url TEXT NOT NULL,
  event_types TEXT,
  secrets TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  -- Only events written after the endpoint existed are sent to it.
  from_event_rowid INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, mode);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  -- When pending: when the next attempt is due, or when the lease of a claimed attempt ends.
  next_attempt_at INTEGER,
  last_attempt_at INTEGER,
  last_status_code INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due
  ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_due_by_endpoint
  ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_failed
  ON webhook_deliveries (event_id) WHERE status = 'failed';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id);
CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  verdict TEXT NOT NULL,
  PRIMARY KEY (delivery_id, attempt, started_at)
);
-- The fan-out cursor: the outbox rowid up to which events became deliveries.
CREATE TABLE webhook_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * Wakes `listener` whenever this connection inserts an outbox event: a TEMP trigger (it lives only
 * on this connection, so other processes are unaffected) calls a JS function registered on it.
 * The listener runs inside the writing transaction and must only schedule work, never query.
 * Sessions the store creates on its writer thread wake it too, once committed (`onOutboxCommit`).
 * Other processes' events are found by polling. Returns a function that removes the trigger.
 *
 * @example
 * const unwatch = watchOutbox(store.db, () => dispatcher.notify());
 */
export function watchOutbox(db: Database, listener: () => void): () => void {
  const name = `webhook_notify_${randomBytes(4).toString('hex')}`;
  db.function(name, { deterministic: false, varargs: false }, () => {
    try {
      listener();
    } catch {
      // A wake-up that fails must never roll back the change that wrote the event.
    }
    return null;
  });
  db.exec(`CREATE TEMP TRIGGER ${name} AFTER INSERT ON main.events BEGIN SELECT ${name}(); END`);
  // New sessions are committed on the store's writer thread: the store says so after each.
  const unlisten = onOutboxCommit(db, listener);
  return () => {
    unlisten();
    if (db.open) db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
  };
}

/**
 * The webhook store over a better-sqlite3 database that already holds the `events` outbox and the
 * tables of WEBHOOK_MIGRATIONS.
 *
 * @example
 * const store = createSqliteWebhookStore(db);
 * store.addEndpoint({ accountId, mode: 'test', url, eventTypes: null, secret, now: Date.now() });
 */
export function createSqliteWebhookStore(db: Database): WebhookStore {
  const q = {
    insertEndpoint: db.prepare(`
      INSERT INTO webhook_endpoints
        (id, account_id, mode, url, event_types, secrets, created_at, from_event_rowid)
      VALUES (@id, @account_id, @mode, @url, @event_types, @secrets, @created_at,
        (SELECT COALESCE(MAX(rowid), 0) FROM events))`),
    endpoint: db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?'),
    endpoints: db.prepare(`
      SELECT * FROM webhook_endpoints
      WHERE (@account_id IS NULL OR account_id = @account_id) AND (@mode IS NULL OR mode = @mode)
      ORDER BY created_at, id`),
    allEndpoints: db.prepare('SELECT * FROM webhook_endpoints'),
    anyEndpoint: db.prepare('SELECT 1 FROM webhook_endpoints LIMIT 1').pluck(),
    deleteEndpoint: db.prepare('DELETE FROM webhook_endpoints WHERE id = ?'),
    deleteEndpointAttempts: db.prepare(`
      DELETE FROM webhook_attempts
      WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?)`),
    deleteEndpointDeliveries: db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ?'),
    setSecrets: db.prepare('UPDATE webhook_endpoints SET secrets = ? WHERE id = ?'),

    cursor: db.prepare("SELECT value FROM webhook_state WHERE key = 'fanout_rowid'"),
    setCursor: db.prepare(`
      INSERT INTO webhook_state (key, value) VALUES ('fanout_rowid', ?)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
    maxEventRowid: db.prepare('SELECT COALESCE(MAX(rowid), 0) AS m FROM events'),
    anyDue: db.prepare(`
      SELECT 1 AS due FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ? LIMIT 1`),
    eventsAfter: db.prepare(`
      SELECT rowid, id, account_id, mode, type, session_id, created_at, payload
      FROM events WHERE rowid > ? ORDER BY rowid LIMIT ?`),
    insertDelivery: db.prepare(`
      INSERT OR IGNORE INTO webhook_deliveries
        (id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at, updated_at)
      VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`),

    endpointIds: db.prepare('SELECT id FROM webhook_endpoints'),
    dueFor: db.prepare(`
      SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
      WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at <= ?
      ORDER BY next_attempt_at LIMIT ?`),
    lease: db.prepare(`
      UPDATE webhook_deliveries
      SET attempts = attempts + 1, next_attempt_at = @lease_until, last_attempt_at = @now,
          updated_at = @now
      WHERE id = @id AND status = 'pending' AND attempts < @max
      RETURNING attempts`),
    exhaust: db.prepare(`
      UPDATE webhook_deliveries
      SET status = 'failed', next_attempt_at = NULL, updated_at = @now,
          last_error =
            'no attempts left: ' || attempts || ' made, ' || CAST(@max AS INTEGER) || ' allowed'
      WHERE id = @id AND status = 'pending' AND attempts >= @max`),
    claimed: db.prepare(`
      SELECT d.endpoint_id, w.url, w.secrets,
             e.id, e.account_id, e.mode, e.type, e.session_id, e.created_at, e.payload
      FROM webhook_deliveries d
      JOIN webhook_endpoints w ON w.id = d.endpoint_id
      JOIN events e ON e.id = d.event_id
      WHERE d.id = ?`),
    finish: db.prepare(`
      UPDATE webhook_deliveries
      SET status = @status, next_attempt_at = @next, last_status_code = @code, last_error = @error,
          updated_at = @now
      WHERE id = @id AND attempts = @attempt AND status = 'pending'`),
    insertAttempt: db.prepare(`
      INSERT OR IGNORE INTO webhook_attempts
        (delivery_id, attempt, started_at, duration_ms, status_code, error, verdict)
      VALUES (?, ?, ?, ?, ?, ?, ?)`),
    nextDue: db.prepare(
      "SELECT MIN(next_attempt_at) AS t FROM webhook_deliveries WHERE status = 'pending'",
    ),

    recentEvents: db.prepare(`
      SELECT rowid, id, account_id, mode, type, session_id, created_at, payload
      FROM events ORDER BY rowid DESC LIMIT ?`),
    failedEvents: db.prepare(`
      SELECT e.rowid, e.id, e.account_id, e.mode, e.type, e.session_id, e.created_at, e.payload
      FROM events e
      WHERE e.id IN (SELECT event_id FROM webhook_deliveries WHERE status = 'failed')
      ORDER BY e.rowid DESC LIMIT ?`),
    event: db.prepare(`
      SELECT rowid, id, account_id, mode, type, session_id, created_at, payload
      FROM events WHERE id = ?`),
    eventDeliveries: db.prepare(`
      SELECT d.*, w.url FROM webhook_deliveries d
      JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.event_id = ? ORDER BY d.created_at, d.id`),
    eventAttempts: db.prepare(`
      SELECT a.* FROM webhook_attempts a
      JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE d.event_id = ? ORDER BY a.started_at, a.attempt`),
    reset: db.prepare(`
      UPDATE webhook_deliveries
      SET status = 'pending', attempts = 0, next_attempt_at = @now, updated_at = @now
      WHERE event_id = @event_id AND (@endpoint_id IS NULL OR endpoint_id = @endpoint_id)`),
  };

  const eventView = (row: EventRow): EventView => ({
    id: row.id,
    type: row.type,
    accountId: row.account_id,
    mode: row.mode,
    sessionId: row.session_id ?? '',
    createdAt: row.created_at,
    deliveries: (q.eventDeliveries.all(row.id) as DeliveryRow[]).map(toDelivery),
  });

  const fanOut = db.transaction((now: number, limit: number): number => {
    const endpoints = q.allEndpoints.all() as EndpointRow[];
    const cursor = (q.cursor.get() as { value: number } | undefined)?.value ?? 0;
    if (endpoints.length === 0) {
      // Nobody listens: skip ahead, so a later endpoint does not start by reading old history.
      q.setCursor.run((q.maxEventRowid.get() as { m: number }).m);
      return 0;
    }
    const start = Math.max(cursor, Math.min(...endpoints.map((e) => e.from_event_rowid)));
    const rows = q.eventsAfter.all(start, limit) as EventRow[];
    const parsed = endpoints.map(
      (e) => [e, e.event_types === null ? null : (JSON.parse(e.event_types) as string[])] as const,
    );
    for (const event of rows) {
      for (const [endpoint, types] of parsed) {
        if (matches(endpoint, types, event)) {
          q.insertDelivery.run(newId('wd'), event.id, endpoint.id, now, now, now);
        }
      }
    }
    q.setCursor.run(rows.length > 0 ? rows[rows.length - 1]!.rowid : start);
    return rows.length;
  });

  const claimDue = db.transaction(
    (
      now: number,
      limit: number,
      leaseMs: number,
      perEndpoint: number,
      busy: Map<string, number>,
      maxAttempts: number,
    ) => {
      // One indexed look per endpoint with room, so an endpoint's backlog (however long) never
      // costs a scan, nor hides the deliveries due to the others.
      const candidates: { id: string; endpoint_id: string; next_attempt_at: number }[] = [];
      for (const { id } of q.endpointIds.all() as { id: string }[]) {
        const room = Math.min(limit, perEndpoint - (busy.get(id) ?? 0));
        if (room > 0) candidates.push(...(q.dueFor.all(id, now, room) as typeof candidates));
      }
      candidates.sort((a, b) => a.next_attempt_at - b.next_attempt_at);
      const out: ClaimedDelivery[] = [];
      for (const row of candidates.slice(0, limit)) {
        const leased = q.lease.get({
          id: row.id,
          now,
          lease_until: now + leaseMs,
          max: maxAttempts,
        }) as { attempts: number } | undefined;
        if (!leased) {
          // Taken meanwhile, or every attempt was made and the last left no result (the process
          // stopped during it): then the schedule is over, and the delivery ends as failed rather
          // than be claimed for ever.
          q.exhaust.run({ id: row.id, now, max: maxAttempts });
          continue;
        }
        const detail = q.claimed.get(row.id) as
          | (Omit<EventRow, 'rowid'> & { endpoint_id: string; url: string; secrets: string })
          | undefined;
        if (!detail) {
          // The event row is gone (pruned): nothing can be sent, so stop trying.
          q.finish.run({
            id: row.id,
            attempt: leased.attempts,
            status: 'failed',
            next: null,
            code: null,
            error: 'the event is no longer stored',
            now,
          });
          continue;
        }
        out.push({
          deliveryId: row.id,
          attempt: leased.attempts,
          endpointId: detail.endpoint_id,
          url: detail.url,
          secrets: JSON.parse(detail.secrets) as SigningSecret[],
          event: toOutbox({ ...detail, rowid: 0 }),
        });
      }
      return out;
    },
  );

  const recordAttempts = db.transaction(
    (records: Parameters<WebhookStore['recordAttempts']>[0]) => {
      for (const r of records) {
        const code = r.result.kind === 'response' ? r.result.status : null;
        const error = r.verdict === 'delivered' ? null : describeResult(r.result);
        q.finish.run({
          id: r.deliveryId,
          attempt: r.attempt,
          status: r.verdict === 'retry' ? 'pending' : r.verdict,
          next: r.verdict === 'retry' ? r.nextAttemptAt : null,
          code,
          error,
          now: r.finishedAt,
        });
        q.insertAttempt.run(
          r.deliveryId,
          r.attempt,
          r.startedAt,
          Math.max(0, r.finishedAt - r.startedAt),
          code,
          error,
          r.verdict,
        );
      }
    },
  );

  const redeliver = db.transaction(
    (eventId: string, now: number, endpointId: string | undefined): number | null => {
      const event = q.event.get(eventId) as EventRow | undefined;
      if (!event) return null;
      q.reset.run({ event_id: eventId, endpoint_id: endpointId ?? null, now });
      for (const endpoint of q.allEndpoints.all() as EndpointRow[]) {
        if (endpointId !== undefined && endpoint.id !== endpointId) continue;
        const types =
          endpoint.event_types === null ? null : (JSON.parse(endpoint.event_types) as string[]);
        // An endpoint registered after the event still gets it when asked for explicitly.
        if (matches({ ...endpoint, from_event_rowid: 0 }, types, event)) {
          q.insertDelivery.run(newId('wd'), event.id, endpoint.id, now, now, now);
        }
      }
      return (q.eventDeliveries.all(eventId) as DeliveryRow[]).filter(
        (d) => d.status === 'pending' && (endpointId === undefined || d.endpoint_id === endpointId),
      ).length;
    },
  );

  return {
    addEndpoint({ accountId, mode, url, eventTypes, secret, now }) {
      const id = newId('we');
      q.insertEndpoint.run({
        id,
        account_id: accountId,
        mode,
        url,
        event_types: eventTypes === null ? null : JSON.stringify(eventTypes),
        secrets: JSON.stringify([{ secret, createdAt: now, expiresAt: null }]),
        created_at: now,
      });
      return toEndpoint(q.endpoint.get(id) as EndpointRow);
    },
    getEndpoint(id) {
      const row = q.endpoint.get(id) as EndpointRow | undefined;
      return row ? toEndpoint(row) : null;
    },
    listEndpoints(filter = {}) {
      return (
        q.endpoints.all({
          account_id: filter.accountId ?? null,
          mode: filter.mode ?? null,
        }) as EndpointRow[]
      ).map(toEndpoint);
    },
    removeEndpoint: (id) =>
      db.transaction(() => {
        q.deleteEndpointAttempts.run(id);
        q.deleteEndpointDeliveries.run(id);
        return q.deleteEndpoint.run(id).changes > 0;
      })(),
    setSecrets(id, secrets) {
      if (q.setSecrets.run(JSON.stringify(secrets), id).changes === 0) return null;
      return toEndpoint(q.endpoint.get(id) as EndpointRow);
    },
    fanOut(now, limit) {
      // Reads first: most wake-ups find nothing new, or nobody listening, and need no write lock
      // for that. Under a run of creates the lock is mostly the create writer's, and waiting for
      // it stops the event loop. A stale cursor costs nothing: an endpoint starts at its own
      // `from_event_rowid`.
      const cursor = (q.cursor.get() as { value: number } | undefined)?.value ?? 0;
      if ((q.maxEventRowid.get() as { m: number }).m <= cursor) return 0;
      if (q.anyEndpoint.get() === undefined) return 0;
      return fanOut.immediate(now, limit);
    },
    claimDue(o) {
      if (!q.anyDue.get(o.now)) return [];
      return claimDue.immediate(
        o.now,
        o.limit,
        o.leaseMs,
        o.perEndpointLimit,
        new Map(o.busy),
        o.maxAttempts ?? Number.MAX_SAFE_INTEGER,
      );
    },
    recordAttempts: (records) => {
      if (records.length > 0) recordAttempts.immediate(records);
    },
    nextDueAt: () => (q.nextDue.get() as { t: number | null }).t,
    listEvents({ failedOnly, limit }) {
      const rows = (failedOnly ? q.failedEvents : q.recentEvents).all(limit) as EventRow[];
      return rows.map(eventView);
    },
    getEvent(id) {
      const row = q.event.get(id) as EventRow | undefined;
      return row ? eventView(row) : null;
    },
    listAttempts(eventId) {
      return (
        q.eventAttempts.all(eventId) as {
          delivery_id: string;
          attempt: number;
          started_at: number;
          duration_ms: number;
          status_code: number | null;
          error: string | null;
          verdict: AttemptView['verdict'];
        }[]
      ).map((r) => ({
        deliveryId: r.delivery_id,
        attempt: r.attempt,
        startedAt: r.started_at,
        durationMs: r.duration_ms,
        statusCode: r.status_code,
        error: r.error,
        verdict: r.verdict,
      }));
    },
    redeliver: (eventId, now, endpointId) => redeliver.immediate(eventId, now, endpointId),
  };
}
