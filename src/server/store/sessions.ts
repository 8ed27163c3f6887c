import type { Database } from 'better-sqlite3';
import { orderedId } from '../ids';
import { CREATE_LAYOUT, CREATE_SQL, createRows, eventValues } from './createWriter';
import type { GroupCommit } from './groupCommit';
import type { SqliteEvents } from './events';
import type { SqliteFlows } from './flows';
import type { OtherWriters } from './otherWriters';
import { outboxCommitted } from './outboxWake';
import {
  SECRET_COLUMNS,
  SESSION_COLUMNS,
  rowToSession,
  settingsJson,
  secretOf,
  statusRank,
  type SecretColumns,
  type SessionRow,
} from './rows';
import { sqliteSessionList } from './sessionList';
import type { ClientSecretRecord, Scope, SessionRecord, SessionRecordStore } from './types';

/** What the secrets module does to sessions, inside its own transactions. */
export interface SessionRows {
  /** The row of a session in `scope`, if any. */
  inScope(scope: Scope, id: string): SessionRow | undefined;
  record(row: SessionRow): SessionRecord;
  /** `updateSession` without a transaction of its own. */
  update(prev: SessionRecord, next: SessionRecord, now: number): SessionRecord | null;
  /** Drops what is kept of a session whose secret changes. */
  forget(id: string): void;
}

export interface SqliteSessions {
  store: SessionRecordStore;
  rows: SessionRows;
}

/** A session with its current client secret, as `getSessionWithSecret` gives them. */
interface WithSecret {
  session: SessionRecord;
  secret: ClientSecretRecord | null;
}

const READ_KEPT_MAX = 10_000;

/**
 * Sessions (`sessions`, with their flows stored once in `flows`) over one SQLite database. New
 * sessions go through `commit` (group commit, on the writer thread when there is one); every
 * update is an optimistic write of one row, with its status event in the same transaction.
 * Sessions read with their secret (integrators poll them) are kept in memory: sessions are
 * written only through this store, so each write drops its entry, and `writers` drops them all
 * when another process commits.
 *
 * @example
 * const { store } = sqliteSessions(db, { flows, events, commit, writers });
 * await store.createSession(session, secret);
 */
export function sqliteSessions(
  db: Database,
  deps: { flows: SqliteFlows; events: SqliteEvents; commit: GroupCommit; writers: OtherWriters },
): SqliteSessions {
  const { flows, events, commit, writers } = deps;
  const read = new Map<string, WithSecret>();
  writers.onCommit(() => read.clear());
  const s = {
    inScope: db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ? AND account_id = ? AND mode = ?`,
    ),
    byId: db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
    withSecret: db.prepare(`SELECT ${SESSION_COLUMNS}, ${SECRET_COLUMNS} FROM sessions
      WHERE id = ? AND account_id = ? AND mode = ?`),
    update: db.prepare(`UPDATE sessions SET status = @status, status_rank = @status_rank,
      started_at = @started_at, finished_at = @finished_at, finished_sort = @finished_sort,
      last_activity_at = @last_activity_at, report = @report, position = @position,
      rev = rev + 1 WHERE id = @id AND rev = @rev`),
    // Settings change only where a node writes providedData (an external_call's answer).
    updateSettings: db.prepare(`UPDATE sessions SET settings = @settings WHERE id = @id`),
    // Through sessions_by_status: unopened ones by creation time, open ones (few at any time)
    // by their last activity.
    timedOut: db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions
      WHERE account_id = @account AND mode = @mode AND status_rank = 0 AND created_at < @created
      UNION ALL
      SELECT ${SESSION_COLUMNS} FROM sessions
      WHERE account_id = @account AND mode = @mode AND status_rank = 1 AND last_activity_at < @idle
      LIMIT @limit`),
    accountIds: db.prepare('SELECT id FROM accounts').pluck(),
  };
  const record = (r: SessionRow) => rowToSession(r, flows.of);

  const update = (prev: SessionRecord, next: SessionRecord, now: number) => {
    read.delete(prev.id);
    const res = s.update.run({
      id: prev.id,
      rev: prev.rev,
      status: next.status,
      status_rank: statusRank(next.status),
      started_at: next.startedAt,
      finished_at: next.finishedAt,
      finished_sort: next.finishedAt ?? 0,
      last_activity_at: next.lastActivityAt,
      report: JSON.stringify(next.report),
      position: JSON.stringify(next.position),
    });
    if (res.changes === 0) return null;
    if (next.settings !== prev.settings)
      s.updateSettings.run({ id: prev.id, settings: settingsJson(next.settings) });
    if (next.status !== prev.status) events.appendStatus(next, now);
    return { ...next, rev: prev.rev + 1 };
  };
  const updateTx = db.transaction(update);

  const rows: SessionRows = {
    inScope: (scope, id) =>
      s.inScope.get(id, scope.accountId, scope.mode) as SessionRow | undefined,
    record,
    update,
    forget: (id) => read.delete(id),
  };

  const store: SessionRecordStore = {
    async createSession(session, secret) {
      const flow = flows.keyOf(session.settings.flow);
      await commit.write(createRows(session, secret, flow, orderedId('evt', 8)));
      // Committed on the writer's thread, where the outbox watchers' triggers do not fire.
      outboxCommitted(db);
    },
    async getSession(scope, id) {
      const r = rows.inScope(scope, id);
      return r ? record(r) : null;
    },
    async getSessionWithSecret(scope, id) {
      writers.check();
      const hit = read.get(id);
      if (hit) {
        const { accountId, mode } = hit.session;
        return accountId === scope.accountId && mode === scope.mode ? hit : null;
      }
      const r = s.withSecret.get(id, scope.accountId, scope.mode) as
        (SessionRow & SecretColumns) | undefined;
      if (!r) return null;
      const found = { session: record(r), secret: secretOf(r) };
      if (read.size >= READ_KEPT_MAX) {
        const oldest = read.keys().next().value;
        if (oldest !== undefined) read.delete(oldest);
      }
      read.set(id, found);
      return found;
    },
    async getSessionById(id) {
      const r = s.byId.get(id) as SessionRow | undefined;
      return r ? record(r) : null;
    },
    listSessions: sqliteSessionList(db, record),
    async updateSession(prev, next, now) {
      return updateTx(prev, next, now);
    },
    async listTimedOut(createdBefore, idleBefore, limit) {
      const out: SessionRecord[] = [];
      for (const account of s.accountIds.all() as string[]) {
        for (const mode of ['test', 'live'] as const) {
          const found = s.timedOut.all({
            account,
            mode,
            created: createdBefore,
            idle: idleBefore,
            limit: limit - out.length,
          }) as SessionRow[];
          for (const r of found) out.push(record(r));
          if (out.length >= limit) return out;
        }
      }
      return out;
    },
  };
  return { store, rows };
}

/**
 * Inserts creates' rows on the store's own connection, in one transaction (the group commit's
 * `insert` when there is no writer thread).
 *
 * @example
 * groupCommit({ insert: sessionInserter(db), startWriter: null });
 */
export function sessionInserter(db: Database): (items: ReturnType<typeof createRows>[]) => void {
  const s = {
    flow: db.prepare(CREATE_SQL.insertFlow),
    session: db.prepare(CREATE_SQL.insertSession),
    event: db.prepare(CREATE_SQL.insertEvent),
  };
  return db.transaction((items: ReturnType<typeof createRows>[]) => {
    for (const item of items) {
      s.flow.run(item[0], item[1]);
      s.session.run(item.slice(...CREATE_LAYOUT.session));
      s.event.run(eventValues(item));
    }
  });
}
