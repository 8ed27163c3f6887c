import { orderedId } from '../../ids';
import type { EventRecord, EventStore, SessionRecord } from '../types';
import type { Pg, PgQuery } from './client';

interface EventRow {
  seq: number;
  id: string;
  account_id: string;
  mode: 'test' | 'live';
  type: string;
  session_id: string;
  created_at: number;
  payload: string;
}

/**
 * The status event of a session, as every store writes it (same key order in the payload).
 *
 * @example
 * statusEvent({ id: 'sess_1', accountId: 'acct_1', mode: 'test' }, 1000).type; // 'session.status'
 */
export function statusEvent(
  session: Pick<SessionRecord, 'id' | 'accountId' | 'mode'>,
  now: number,
): EventRecord {
  const id = orderedId('evt', 8);
  return {
    id,
    accountId: session.accountId,
    mode: session.mode,
    type: 'session.status',
    sessionId: session.id,
    createdAt: now,
    payload: JSON.stringify({ id, type: 'session.status', createdAt: now, sessionId: session.id }),
  };
}

/**
 * Inserts one event on `q` (the pool, or the transaction of the change it reports).
 *
 * @example
 * await insertEvent(tx, statusEvent(session, now));
 */
export async function insertEvent(q: PgQuery, e: EventRecord): Promise<void> {
  await q`INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
    VALUES (${e.id}, ${e.accountId}, ${e.mode}, ${e.type}, ${e.sessionId}, ${e.createdAt},
    ${e.payload})`;
}

/**
 * The events (`events`, the webhook outbox) of a PostgreSQL store, in the order written.
 *
 * @example
 * const events = pgEvents(pg);
 * await events.listEvents({ sessionId: 'sess_…' }); // [{ seq: 1, type: 'session.status', … }]
 */
export function pgEvents(pg: Pg): EventStore {
  return {
    async appendEvent(event) {
      await insertEvent(pg, event);
    },
    async listEvents(options) {
      const after = options.after ?? 0;
      const limit = options.limit ?? 1000;
      const rows =
        options.sessionId !== undefined
          ? await pg<EventRow[]>`SELECT * FROM events
              WHERE session_id = ${options.sessionId} AND seq > ${after} ORDER BY seq LIMIT ${limit}`
          : await pg<EventRow[]>`SELECT * FROM events WHERE seq > ${after} ORDER BY seq
              LIMIT ${limit}`;
      return rows.map((r): EventRecord & { seq: number } => ({
        seq: r.seq,
        id: r.id,
        accountId: r.account_id,
        mode: r.mode,
        type: r.type,
        sessionId: r.session_id,
        createdAt: r.created_at,
        payload: r.payload,
      }));
    },
  };
}
