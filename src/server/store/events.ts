import type { Database } from 'better-sqlite3';
import { orderedId } from '../ids';
import type { EventRecord, EventStore, SessionRecord } from './types';

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

/** The outbox over SQLite, and the status event a session update writes in its transaction. */
export interface SqliteEvents extends EventStore {
  /** Appends `session.status` for `session`; run it inside the transaction that changed it. */
  appendStatus(session: Pick<SessionRecord, 'id' | 'accountId' | 'mode'>, now: number): void;
  /** `appendEvent` inside the caller's transaction: a failure throws there and rolls it back. */
  appendInTransaction(event: EventRecord): void;
}

/**
 * The events (`events`, the webhook outbox) of one SQLite database, in the order written.
 *
 * @example
 * const events = sqliteEvents(db);
 * await events.listEvents({ sessionId: 'sess_…' }); // [{ seq: 1, type: 'session.status', … }]
 */
export function sqliteEvents(db: Database): SqliteEvents {
  const s = {
    insert: db.prepare(`INSERT INTO events (id, account_id, mode, type, session_id, created_at,
      payload) VALUES (@id, @accountId, @mode, @type, @sessionId, @createdAt, @payload)`),
    after: db.prepare('SELECT rowid AS seq, * FROM events WHERE rowid > ? ORDER BY rowid LIMIT ?'),
    // No index on session_id: the outbox is read in order; this one is for inspection.
    ofSession: db.prepare(`SELECT rowid AS seq, * FROM events WHERE session_id = ? AND rowid > ?
      ORDER BY rowid LIMIT ?`),
  };
  return {
    async appendEvent(event) {
      s.insert.run(event);
    },
    appendInTransaction(event) {
      s.insert.run(event);
    },
    appendStatus(session, now) {
      const id = orderedId('evt', 8);
      s.insert.run({
        id,
        accountId: session.accountId,
        mode: session.mode,
        type: 'session.status',
        sessionId: session.id,
        createdAt: now,
        payload: JSON.stringify({
          id,
          type: 'session.status',
          createdAt: now,
          sessionId: session.id,
        }),
      });
    },
    async listEvents(options) {
      const after = options.after ?? 0;
      const limit = options.limit ?? 1000;
      const rows = (
        options.sessionId !== undefined
          ? s.ofSession.all(options.sessionId, after, limit)
          : s.after.all(after, limit)
      ) as EventRow[];
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
