import { SORT_COLUMNS, SESSION_COLUMNS, sortValues, statusRank, type SessionRow } from '../rows';
import type { ListPage, ListQuery, Scope, SessionRecord } from '../types';
import type { Pg, PgQuery } from './client';

/** The filters of a list query, with their values as `$n` parameters. */
function listFilters(scope: Scope, q: ListQuery): { where: string[]; params: unknown[] } {
  const params: unknown[] = [scope.accountId, scope.mode];
  const where = ['account_id = $1', 'mode = $2'];
  const add = (clause: (at: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (q.clientReferenceId !== undefined)
    add((p) => `client_reference_id = ${p}`, q.clientReferenceId);
  if (q.flowId !== undefined) add((p) => `flow_id = ${p}`, q.flowId);
  if (q.statuses && q.statuses.length) {
    add((p) => `status_rank = ANY(${p}::int[])`, q.statuses.map(statusRank));
  }
  if (q.fromDate !== undefined) add((p) => `created_at >= ${p}`, q.fromDate);
  if (q.toDate !== undefined) add((p) => `created_at < ${p}`, q.toDate);
  if (q.search) add((p) => `strpos(search_text, ${p}) > 0`, q.search);
  return { where, params };
}

/**
 * `listSessions` over PostgreSQL: keyset pages in the sort index's order (`finished_sort` is 0
 * while unfinished, so one index serves `finishedAt` here), the same pages SQLite gives.
 *
 * @example
 * const list = pgSessionList(pg, flows.records);
 * await list(scope, { limit: 50, sortBy: 'createdAt', sortOrder: 'desc', after: null, includeTotal: false });
 */
export function pgSessionList(
  pg: Pg,
  records: (q: PgQuery, rows: readonly SessionRow[]) => Promise<SessionRecord[]>,
): (scope: Scope, q: ListQuery) => Promise<ListPage> {
  return async (scope, q) => {
    const { where, params } = listFilters(scope, q);
    const cols = SORT_COLUMNS[q.sortBy];
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const page = [...where];
    const pageParams = [...params];
    if (q.after) {
      // Keyset: the row value after the last one seen; rows added since never shift a page.
      const marks = q.after.map((v) => {
        pageParams.push(v);
        return `$${pageParams.length}`;
      });
      page.push(`(${cols.join(', ')}) ${q.sortOrder === 'asc' ? '>' : '<'} (${marks.join(', ')})`);
    }
    pageParams.push(q.limit + 1);
    const rows = await pg.unsafe<SessionRow[]>(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${page.join(' AND ')}
        ORDER BY ${cols.map((c) => `${c} ${dir}`).join(', ')} LIMIT $${pageParams.length}`,
      pageParams as never[],
      { prepare: true },
    );
    const hasMore = rows.length > q.limit;
    const sessions = await records(pg, rows.slice(0, q.limit));
    const last = sessions[sessions.length - 1];
    const next = hasMore ? (last ? sortValues(last, q.sortBy) : q.after) : null;
    const out: ListPage = { sessions, next, hasMore };
    if (q.includeTotal) {
      const [c] = await pg.unsafe<{ n: number }[]>(
        `SELECT count(*) AS n FROM sessions WHERE ${where.join(' AND ')}`,
        params as never[],
        { prepare: true },
      );
      out.totalCount = c?.n ?? 0;
    }
    return out;
  };
}
