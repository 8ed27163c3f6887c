import {
  SECRET_COLUMNS,
  SESSION_COLUMNS,
  searchText,
  secretOf,
  settingsJson,
  statusRank,
  type SecretColumns,
  type SessionRow,
} from '../rows';
import type { Scope, SessionRecord, SessionRecordStore } from '../types';
import type { Pg, PgQuery } from './client';
import { statusEvent } from './events';
import type { PgFlows } from './flows';
import { pgSessionList } from './sessionList';

/** What the secrets and hand-off modules do to sessions, inside their own transactions. */
export interface PgSessionRows {
  /** The row of a session in `scope`, locked until the transaction ends (`FOR UPDATE`). */
  lockInScope(tx: PgQuery, scope: Scope, id: string): Promise<SessionRow | undefined>;
  records(q: PgQuery, rows: readonly SessionRow[]): Promise<SessionRecord[]>;
  /** `updateSession` on `q`, without a transaction of its own. */
  update(
    q: PgQuery,
    prev: SessionRecord,
    next: SessionRecord,
    now: number,
  ): Promise<SessionRecord | null>;
}

export interface PgSessions {
  store: SessionRecordStore;
  rows: PgSessionRows;
}

const COLUMNS = SESSION_COLUMNS;

/**
 * Sessions (`sessions`, with their flows stored once in `flows`) over PostgreSQL. Every update is
 * an optimistic write of one row (`rev`), with its status event in the same transaction; nothing
 * is kept in memory, since other instances write the same rows.
 *
 * @example
 * const { store } = pgSessions(pg, pgFlows());
 * await store.createSession(session, secret);
 */
export function pgSessions(pg: Pg, flows: PgFlows): PgSessions {
  const one = async (q: PgQuery, rows: readonly SessionRow[]) =>
    rows[0] ? ((await flows.records(q, rows))[0] ?? null) : null;

  // One statement each (data-modifying CTEs): atomic without BEGIN and COMMIT, one round trip.
  const update: PgSessionRows['update'] = async (q, prev, next, now) => {
    const set = q`UPDATE sessions SET status = ${next.status},
      status_rank = ${statusRank(next.status)}, started_at = ${next.startedAt},
      finished_at = ${next.finishedAt}, finished_sort = ${next.finishedAt ?? 0},
      last_activity_at = ${next.lastActivityAt}, report = ${JSON.stringify(next.report)},
      position = ${JSON.stringify(next.position)}, rev = rev + 1
      WHERE id = ${prev.id} AND rev = ${prev.rev} RETURNING id`;
    let updated: number;
    if (next.status !== prev.status) {
      const e = statusEvent(next, now);
      const [r] = await q<{ n: number }[]>`WITH u AS (${set}), e AS (
          INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
          SELECT ${e.id}, ${e.accountId}, ${e.mode}, ${e.type}, ${e.sessionId}, ${e.createdAt},
          ${e.payload} FROM u)
        SELECT count(*)::int AS n FROM u`;
      updated = r?.n ?? 0;
    } else {
      updated = (await set).length;
    }
    return updated === 0 ? null : { ...next, rev: prev.rev + 1 };
  };

  const rows: PgSessionRows = {
    async lockInScope(tx, scope, id) {
      const [r] = await tx.unsafe<SessionRow[]>(
        `SELECT ${COLUMNS} FROM sessions WHERE id = $1 AND account_id = $2 AND mode = $3 FOR UPDATE`,
        [id, scope.accountId, scope.mode],
        { prepare: true },
      );
      return r;
    },
    records: (q, r) => flows.records(q, r),
    update,
  };

  const store: SessionRecordStore = {
    async createSession(session, secret) {
      const flow = flows.keyOf(session.settings.flow);
      const e = statusEvent(session, session.createdAt);
      await pg`WITH f AS (INSERT INTO flows (hash, flow) VALUES (${flow.hash}, ${flow.json})
          ON CONFLICT (hash) DO NOTHING),
        s AS (INSERT INTO sessions (id, account_id, mode, status, status_rank, created_at,
          started_at, finished_at, finished_sort, last_activity_at, flow_id, flow_hash,
          client_reference_id, version, search_text, settings, report, position, rev, secret,
          secret_created_at, secret_expire_at, secret_used_at)
          VALUES (${session.id}, ${session.accountId}, ${session.mode}, ${session.status},
          ${statusRank(session.status)}, ${session.createdAt}, ${session.startedAt},
          ${session.finishedAt}, ${session.finishedAt ?? 0}, ${session.lastActivityAt},
          ${session.flowId}, ${flow.hash}, ${session.clientReferenceId}, ${session.version},
          ${searchText(session)}, ${settingsJson(session.settings)},
          ${JSON.stringify(session.report)}, ${JSON.stringify(session.position)}, 0,
          ${secret.secret}, ${secret.createdAt}, ${secret.expireAt}, ${secret.usedAt}))
        INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
          VALUES (${e.id}, ${e.accountId}, ${e.mode}, ${e.type}, ${e.sessionId}, ${e.createdAt},
          ${e.payload})`;
    },
    async getSession(scope, id) {
      return one(
        pg,
        await pg.unsafe<SessionRow[]>(
          `SELECT ${COLUMNS} FROM sessions WHERE id = $1 AND account_id = $2 AND mode = $3`,
          [id, scope.accountId, scope.mode],
          { prepare: true },
        ),
      );
    },
    async getSessionWithSecret(scope, id) {
      const found = await pg.unsafe<(SessionRow & SecretColumns)[]>(
        `SELECT ${COLUMNS}, ${SECRET_COLUMNS} FROM sessions
          WHERE id = $1 AND account_id = $2 AND mode = $3`,
        [id, scope.accountId, scope.mode],
        { prepare: true },
      );
      const r = found[0];
      const session = await one(pg, found);
      return r && session ? { session, secret: secretOf(r) } : null;
    },
    async getSessionById(id) {
      return one(
        pg,
        await pg.unsafe<SessionRow[]>(`SELECT ${COLUMNS} FROM sessions WHERE id = $1`, [id], {
          prepare: true,
        }),
      );
    },
    listSessions: pgSessionList(pg, flows.records),
    async updateSession(prev, next, now) {
      return pg.begin((tx) => update(tx, prev, next, now));
    },
    async listTimedOut(createdBefore, idleBefore, limit) {
      const found = await pg.unsafe<SessionRow[]>(
        `(SELECT ${COLUMNS} FROM sessions WHERE status_rank = 0 AND created_at < $1 LIMIT $3)
          UNION ALL
          (SELECT ${COLUMNS} FROM sessions WHERE status_rank = 1 AND last_activity_at < $2 LIMIT $3)
          LIMIT $3`,
        [createdBefore, idleBefore, limit],
        { prepare: true },
      );
      return flows.records(pg, found);
    },
  };
  return { store, rows };
}
