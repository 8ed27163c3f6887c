/**
 * The webhook tables in PostgreSQL, beside the core's `events` outbox, for instances sharing one
 * database. Fan-out takes events not yet fanned out with `FOR UPDATE SKIP LOCKED` and marks them
 * in the same transaction (no cursor: the outbox's `seq` is the order of writing, not of commit,
 * so a cursor could pass over an event committed late). Claims take due deliveries the same way,
 * so two instances never lease one delivery, and never wait on each other.
 */
import { randomBytes } from 'node:crypto';
import type { Promised } from '../store/promised';
import type { Pg, PgQuery } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
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

export const PG_WEBHOOK_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_webhooks_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE webhook_endpoints (
          id TEXT COLLATE "C" PRIMARY KEY,
          account_id TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          url TEXT NOT NULL,
          event_types TEXT,
          secrets TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          -- Only events written after the endpoint existed are sent to it.
          from_seq BIGINT NOT NULL
        );
        CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, mode);
        CREATE TABLE webhook_deliveries (
          id TEXT COLLATE "C" PRIMARY KEY,
          event_id TEXT COLLATE "C" NOT NULL,
          endpoint_id TEXT COLLATE "C" NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at BIGINT,
          last_attempt_at BIGINT,
          last_status_code INTEGER,
          last_error TEXT,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          UNIQUE (event_id, endpoint_id)
        );
        CREATE INDEX webhook_deliveries_due_by_endpoint
          ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
        CREATE INDEX webhook_deliveries_failed
          ON webhook_deliveries (event_id) WHERE status = 'failed';
        CREATE TABLE webhook_attempts (
          delivery_id TEXT COLLATE "C" NOT NULL,
          attempt INTEGER NOT NULL,
          started_at BIGINT NOT NULL,
          duration_ms BIGINT NOT NULL,
          status_code INTEGER,
          error TEXT,
          verdict TEXT NOT NULL,
          PRIMARY KEY (delivery_id, attempt, started_at)
        );
        -- Events not yet turned into deliveries: few at any time, found by their own index.
        ALTER TABLE events ADD COLUMN fanned_out BOOLEAN NOT NULL DEFAULT false;
        CREATE INDEX events_to_fan_out ON events (seq) WHERE NOT fanned_out;
      `);
    },
  },
];

/** `WebhookStore` as PostgreSQL answers it: every result a promise. */
export type PgWebhookStore = Promised<WebhookStore>;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** The columns of an endpoint, named as `EndpointRow` names them. */
const ENDPOINT = `id, account_id, mode, url, event_types, secrets, created_at,
  from_seq AS from_event_rowid`;
/** The columns of an event, named as `EventRow` names them. */
const EVENT = 'seq AS rowid, id, account_id, mode, type, session_id, created_at, payload';

const typesOf = (e: EndpointRow) =>
  e.event_types === null ? null : (JSON.parse(e.event_types) as string[]);

/**
 * The webhook store over a PostgreSQL pool whose database holds the core's tables and those of
 * `PG_WEBHOOK_MIGRATIONS`.
 *
 * @example
 * const store = pgWebhookStore(pg);
 * await store.addEndpoint({ accountId, mode: 'test', url, eventTypes: null, secret, now: Date.now() });
 */
export function pgWebhookStore(pg: Pg): PgWebhookStore {
  const endpoint = async (q: PgQuery, id: string) =>
    (
      await q.unsafe<EndpointRow[]>(`SELECT ${ENDPOINT} FROM webhook_endpoints WHERE id = $1`, [id])
    )[0];
  const allEndpoints = (q: PgQuery) =>
    q.unsafe<EndpointRow[]>(`SELECT ${ENDPOINT} FROM webhook_endpoints ORDER BY created_at, id`);
  const insertDelivery = (q: PgQuery, eventId: string, endpointId: string, now: number) =>
    q`INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts,
      next_attempt_at, created_at, updated_at)
      VALUES (${newId('wd')}, ${eventId}, ${endpointId}, 'pending', 0, ${now}, ${now}, ${now})
      ON CONFLICT (event_id, endpoint_id) DO NOTHING`;
  const deliveriesOf = async (q: PgQuery, eventId: string) =>
    q<DeliveryRow[]>`SELECT d.*, w.url FROM webhook_deliveries d
      JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.event_id = ${eventId} ORDER BY d.created_at, d.id`;
  const eventView = async (row: EventRow): Promise<EventView> => ({
    id: row.id,
    type: row.type,
    accountId: row.account_id,
    mode: row.mode,
    sessionId: row.session_id ?? '',
    createdAt: row.created_at,
    deliveries: (await deliveriesOf(pg, row.id)).map(toDelivery),
  });
  const finish = (
    q: PgQuery,
    f: { id: string; attempt: number; status: string; next: number | null; code: number | null },
    error: string | null,
    now: number,
  ) => q`UPDATE webhook_deliveries SET status = ${f.status}, next_attempt_at = ${f.next},
      last_status_code = ${f.code}, last_error = ${error}, updated_at = ${now}
      WHERE id = ${f.id} AND attempts = ${f.attempt} AND status = 'pending'`;

  return {
    async addEndpoint({ accountId, mode, url, eventTypes, secret, now }) {
      const id = newId('we');
      await pg`INSERT INTO webhook_endpoints (id, account_id, mode, url, event_types, secrets,
        created_at, from_seq) VALUES (${id}, ${accountId}, ${mode}, ${url},
        ${eventTypes === null ? null : JSON.stringify(eventTypes)},
        ${JSON.stringify([{ secret, createdAt: now, expiresAt: null }])}, ${now},
        (SELECT COALESCE(MAX(seq), 0) FROM events))`;
      const row = await endpoint(pg, id);
      if (!row) throw new Error(`endpoint ${id} vanished while it was added`);
      return toEndpoint(row);
    },
    async getEndpoint(id) {
      const row = await endpoint(pg, id);
      return row ? toEndpoint(row) : null;
    },
    async listEndpoints(filter = {}) {
      const rows = await pg.unsafe<EndpointRow[]>(
        `SELECT ${ENDPOINT} FROM webhook_endpoints
          WHERE ($1::text IS NULL OR account_id = $1) AND ($2::text IS NULL OR mode = $2)
          ORDER BY created_at, id`,
        [filter.accountId ?? null, filter.mode ?? null],
      );
      return rows.map(toEndpoint);
    },
    async removeEndpoint(id) {
      return pg.begin(async (tx) => {
        await tx`DELETE FROM webhook_attempts WHERE delivery_id IN
          (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${id})`;
        await tx`DELETE FROM webhook_deliveries WHERE endpoint_id = ${id}`;
        return (await tx`DELETE FROM webhook_endpoints WHERE id = ${id}`).count > 0;
      });
    },
    async setSecrets(id, secrets) {
      const done = await pg`UPDATE webhook_endpoints SET secrets = ${JSON.stringify(secrets)}
        WHERE id = ${id}`;
      if (done.count === 0) return null;
      const row = await endpoint(pg, id);
      return row ? toEndpoint(row) : null;
    },

    async fanOut(now, limit) {
      return pg.begin(async (tx) => {
        const events = await tx.unsafe<EventRow[]>(
          `SELECT ${EVENT} FROM events WHERE NOT fanned_out ORDER BY seq LIMIT $1
            FOR UPDATE SKIP LOCKED`,
          [limit],
        );
        if (events.length === 0) return 0;
        // With nobody listening the events are marked all the same: a later endpoint starts
        // after them anyway (`from_seq`).
        for (const endpoint of await allEndpoints(tx)) {
          const types = typesOf(endpoint);
          for (const event of events) {
            if (matches(endpoint, types, event))
              await insertDelivery(tx, event.id, endpoint.id, now);
          }
        }
        await tx`UPDATE events SET fanned_out = true WHERE seq = ANY(${events.map((e) => e.rowid)}::bigint[])`;
        return events.length;
      });
    },
    async claimDue(o) {
      const maxAttempts = o.maxAttempts ?? 2_147_483_647;
      return pg.begin(async (tx) => {
        const ids = (await tx<{ id: string }[]>`SELECT id FROM webhook_endpoints`).map((r) => r.id);
        const rooms = ids.map((id) =>
          Math.min(o.limit, o.perEndpointLimit - (o.busy.get(id) ?? 0)),
        );
        const open = ids.flatMap((id, i) => ((rooms[i] ?? 0) > 0 ? [[id, rooms[i]] as const] : []));
        if (open.length === 0) return [];
        // One indexed look per endpoint with room, so an endpoint's backlog (however long) never
        // costs a scan, nor hides the deliveries due to the others.
        const candidates = await tx<{ id: string; next_attempt_at: number }[]>`
          SELECT d.id, d.next_attempt_at
          FROM unnest(${open.map((e) => e[0])}::text[], ${open.map((e) => e[1])}::int[])
            AS w(id, room)
          CROSS JOIN LATERAL (
            SELECT id, next_attempt_at FROM webhook_deliveries
            WHERE endpoint_id = w.id AND status = 'pending' AND next_attempt_at <= ${o.now}
            ORDER BY next_attempt_at LIMIT w.room FOR UPDATE SKIP LOCKED) d
          ORDER BY d.next_attempt_at LIMIT ${o.limit}`;
        const out: ClaimedDelivery[] = [];
        for (const row of candidates) {
          const [leased] = await tx<{ attempts: number }[]>`UPDATE webhook_deliveries
            SET attempts = attempts + 1, next_attempt_at = ${o.now + o.leaseMs},
              last_attempt_at = ${o.now}, updated_at = ${o.now}
            WHERE id = ${row.id} AND status = 'pending' AND attempts < ${maxAttempts}
            RETURNING attempts`;
          if (!leased) {
            // Every attempt was made and the last left no result (the process stopped during
            // it): the schedule is over, and the delivery ends as failed.
            await tx`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
              updated_at = ${o.now}, last_error = 'no attempts left: ' || attempts || ' made, '
                || ${maxAttempts}::int || ' allowed'
              WHERE id = ${row.id} AND status = 'pending' AND attempts >= ${maxAttempts}`;
            continue;
          }
          const [detail] = await tx<
            (Omit<EventRow, 'rowid'> & { endpoint_id: string; url: string; secrets: string })[]
          >`SELECT d.endpoint_id, w.url, w.secrets, e.id, e.account_id, e.mode, e.type,
              e.session_id, e.created_at, e.payload
            FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
            JOIN events e ON e.id = d.event_id WHERE d.id = ${row.id}`;
          if (!detail) {
            const gone = { id: row.id, attempt: leased.attempts, status: 'failed', next: null };
            await finish(tx, { ...gone, code: null }, 'the event is no longer stored', o.now);
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
      });
    },
    async recordAttempts(records) {
      if (records.length === 0) return;
      await pg.begin(async (tx) => {
        for (const r of records) {
          const code = r.result.kind === 'response' ? r.result.status : null;
          const error = r.verdict === 'delivered' ? null : describeResult(r.result);
          const status = r.verdict === 'retry' ? 'pending' : r.verdict;
          const next = r.verdict === 'retry' ? r.nextAttemptAt : null;
          await finish(
            tx,
            { id: r.deliveryId, attempt: r.attempt, status, next, code },
            error,
            r.finishedAt,
          );
          await tx`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms,
            status_code, error, verdict) VALUES (${r.deliveryId}, ${r.attempt}, ${r.startedAt},
            ${Math.max(0, r.finishedAt - r.startedAt)}, ${code}, ${error}, ${r.verdict})
            ON CONFLICT DO NOTHING`;
        }
      });
    },
    async nextDueAt() {
      const [r] = await pg<{ t: number | null }[]>`SELECT MIN(next_attempt_at) AS t
        FROM webhook_deliveries WHERE status = 'pending'`;
      return r?.t ?? null;
    },

    async listEvents({ failedOnly, limit }) {
      const rows = failedOnly
        ? await pg.unsafe<EventRow[]>(
            `SELECT ${EVENT} FROM events WHERE id IN
              (SELECT event_id FROM webhook_deliveries WHERE status = 'failed')
              ORDER BY seq DESC LIMIT $1`,
            [limit],
          )
        : await pg.unsafe<EventRow[]>(`SELECT ${EVENT} FROM events ORDER BY seq DESC LIMIT $1`, [
            limit,
          ]);
      return Promise.all(rows.map(eventView));
    },
    async getEvent(id) {
      const [row] = await pg.unsafe<EventRow[]>(`SELECT ${EVENT} FROM events WHERE id = $1`, [id]);
      return row ? eventView(row) : null;
    },
    async listAttempts(eventId) {
      const rows = await pg<
        {
          delivery_id: string;
          attempt: number;
          started_at: number;
          duration_ms: number;
          status_code: number | null;
          error: string | null;
          verdict: AttemptView['verdict'];
        }[]
      >`SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.event_id = ${eventId} ORDER BY a.started_at, a.attempt`;
      return rows.map((r) => ({
        deliveryId: r.delivery_id,
        attempt: r.attempt,
        startedAt: r.started_at,
        durationMs: r.duration_ms,
        statusCode: r.status_code,
        error: r.error,
        verdict: r.verdict,
      }));
    },
    async redeliver(eventId, now, endpointId) {
      return pg.begin(async (tx) => {
        const [event] = await tx.unsafe<EventRow[]>(`SELECT ${EVENT} FROM events WHERE id = $1`, [
          eventId,
        ]);
        if (!event) return null;
        await tx`UPDATE webhook_deliveries SET status = 'pending', attempts = 0,
          next_attempt_at = ${now}, updated_at = ${now}
          WHERE event_id = ${eventId} AND (${endpointId ?? null}::text IS NULL
            OR endpoint_id = ${endpointId ?? null})`;
        for (const endpoint of await allEndpoints(tx)) {
          if (endpointId !== undefined && endpoint.id !== endpointId) continue;
          // An endpoint registered after the event still gets it when asked for explicitly.
          if (matches({ ...endpoint, from_event_rowid: 0 }, typesOf(endpoint), event)) {
            await insertDelivery(tx, event.id, endpoint.id, now);
          }
        }
        return (await deliveriesOf(tx, eventId)).filter(
          (d) =>
            d.status === 'pending' && (endpointId === undefined || d.endpoint_id === endpointId),
        ).length;
      });
    },
  };
}
