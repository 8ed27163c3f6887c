import type { Database, Statement } from 'better-sqlite3';
import { SESSION_STATUSES } from '../../core/api';
import {
  FINISHED_RANK,
  SESSION_COLUMNS,
  SORT_COLUMNS,
  mergeFinishedOrder,
  sortValues,
  statusRank,
  type SessionRow,
} from './rows';
import type { ListPage, ListQuery, Scope, SessionRecord } from './types';

interface Filters {
  where: string[];
  params: unknown[];
}

/** The filters of a list query, after account and mode, with their values. */
function listFilters(q: ListQuery): Filters {
  const where = ['account_id = ?', 'mode = ?'];
  const params: unknown[] = [];
  if (q.clientReferenceId !== undefined) {
    where.push('client_reference_id = ?');
    params.push(q.clientReferenceId);
  }
  if (q.flowId !== undefined) {
    where.push('flow_id = ?');
    params.push(q.flowId);
  }
  if (q.statuses && q.statuses.length) {
    where.push(`status_rank IN (${q.statuses.map(() => '?').join(', ')})`);
    params.push(...q.statuses.map(statusRank));
  }
  if (q.fromDate !== undefined) {
    where.push('created_at >= ?');
    params.push(q.fromDate);
  }
  if (q.toDate !== undefined) {
    where.push('created_at < ?');
    params.push(q.toDate);
  }
  if (q.search) {
    where.push('instr(search_text, ?) > 0');
    params.push(q.search);
  }
  return { where, params };
}

/**
 * `listSessions` over one SQLite database: keyset pages, each query walking one index in the
 * page's order, so a deep page costs what the first does. `record` turns a row into a session.
 *
 * @example
 * const list = sqliteSessionList(db, (row) => rowToSession(row, flows.of));
 * await list(scope, { limit: 50, sortBy: 'createdAt', sortOrder: 'desc', after: null, includeTotal: false });
 */
export function sqliteSessionList(
  db: Database,
  record: (row: SessionRow) => SessionRecord,
): (scope: Scope, q: ListQuery) => Promise<ListPage> {
  // The statements differ only by the filters present: few shapes, each prepared once.
  const prepared = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let st = prepared.get(sql);
    if (!st) {
      st = db.prepare(sql);
      prepared.set(sql, st);
    }
    return st;
  };

  /**
   * The queries whose merged rows make a page, each walking one index in the page's order.
   *
   * One for `createdAt` and `status`. Three for `finishedAt`, because `sessions_by_finished` holds
   * finished sessions only (a new session then writes one index fewer): unfinished sessions all
   * sort at 0, that is by creation, which `sessions_by_status` gives for each unfinished status.
   */
  const pageQueries = (q: ListQuery, { where, params }: Filters) => {
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const op = q.sortOrder === 'asc' ? '>' : '<';
    const query = (cols: readonly string[], extra: string[], extraParams: unknown[]) => ({
      st: prepare(`SELECT ${SESSION_COLUMNS} FROM sessions
        WHERE ${[...where, ...extra].join(' AND ')}
        ORDER BY ${cols.map((c) => `${c} ${dir}`).join(', ')} LIMIT ?`),
      params: [...params, ...extraParams, q.limit + 1],
    });
    // Keyset: the row value after the last one seen; rows added since never shift a page.
    const keyset = (cols: readonly string[]) => [
      `(${cols.join(', ')}) ${op} (${cols.map(() => '?').join(', ')})`,
    ];
    if (q.sortBy !== 'finishedAt') {
      const cols = SORT_COLUMNS[q.sortBy];
      return [q.after ? query(cols, keyset(cols), q.after) : query(cols, [], [])];
    }
    const ranks = new Set((q.statuses ?? SESSION_STATUSES).map(statusRank));
    const out: { st: Statement; params: unknown[] }[] = [];
    const byCreation = SORT_COLUMNS.createdAt;
    // A finishedAt cursor's first value is a number (decodeCursor).
    const at = q.after?.[0] as number | undefined;
    for (let rank = 0; rank < FINISHED_RANK; rank++) {
      if (!ranks.has(rank)) continue;
      const unfinished = ['status_rank = ?', 'finished_sort = 0'];
      // They all sort at 0: after the cursor's value come all of them, those created after it, or none.
      if (at === undefined || (q.sortOrder === 'asc' ? 0 > at : 0 < at)) {
        out.push(query(byCreation, unfinished, [rank]));
      } else if (at === 0) {
        const rest = q.after?.slice(1) ?? [];
        out.push(query(byCreation, [...unfinished, ...keyset(byCreation)], [rank, ...rest]));
      }
    }
    if ([...ranks].some((r) => r >= FINISHED_RANK)) {
      const cols = SORT_COLUMNS.finishedAt;
      const finished = [`status_rank >= ${FINISHED_RANK}`];
      out.push(
        q.after ? query(cols, [...finished, ...keyset(cols)], q.after) : query(cols, finished, []),
      );
    }
    return out;
  };

  const list = db.transaction((scope: Scope, q: ListQuery): ListPage => {
    const filters = listFilters(q);
    let rows: SessionRow[] = [];
    for (const { st, params } of pageQueries(q, filters)) {
      rows.push(...(st.all(scope.accountId, scope.mode, ...params) as SessionRow[]));
    }
    if (q.sortBy === 'finishedAt')
      rows = mergeFinishedOrder(rows, q.sortOrder).slice(0, q.limit + 1);
    const hasMore = rows.length > q.limit;
    const sessions = rows.slice(0, q.limit).map(record);
    const last = sessions[sessions.length - 1];
    const next = hasMore ? (last ? sortValues(last, q.sortBy) : q.after) : null;
    const page: ListPage = { sessions, next, hasMore };
    if (q.includeTotal) {
      const count = prepare(`SELECT count(*) FROM sessions WHERE ${filters.where.join(' AND ')}`);
      page.totalCount = count.pluck().get(scope.accountId, scope.mode, ...filters.params) as number;
    }
    return page;
  });
  return async (scope, q) => list(scope, q);
}
