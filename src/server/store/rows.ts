import { SESSION_STATUSES, type SessionStatus } from '../../core/api';
import type { Flow } from '../../core/flow';
import type { ClientSecretRecord, SessionRecord } from './types';

/** The columns a session is read with, in the order of `SessionRow`. */
export const SESSION_COLUMNS =
  'id, account_id, mode, status, created_at, started_at, finished_at, last_activity_at, flow_id, flow_hash, client_reference_id, version, settings, report, position, rev';

export interface SessionRow {
  id: string;
  account_id: string;
  mode: 'test' | 'live';
  status: SessionStatus;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  last_activity_at: number;
  flow_id: string;
  flow_hash: string;
  client_reference_id: string | null;
  version: string;
  settings: string;
  report: string;
  position: string;
  rev: number;
}

/** A session's current client secret, kept in its own row. */
export const SECRET_COLUMNS = 'secret, secret_created_at, secret_expire_at, secret_used_at';

export interface SecretColumns {
  id: string;
  secret: string;
  secret_created_at: number;
  secret_expire_at: number;
  secret_used_at: number | null;
}

/**
 * The current client secret of a session's row.
 *
 * @example
 * secretOf(row).expireAt; // row.secret_expire_at
 */
export function secretOf(r: SecretColumns): ClientSecretRecord {
  return {
    secret: r.secret,
    sessionId: r.id,
    createdAt: r.secret_created_at,
    expireAt: r.secret_expire_at,
    usedAt: r.secret_used_at,
    revokedAt: null,
  };
}

/**
 * Lifecycle order of a status: what `sortBy=status` sorts on.
 *
 * @example
 * statusRank('inProgress'); // 1
 */
export function statusRank(status: SessionStatus): number {
  return SESSION_STATUSES.indexOf(status);
}

/**
 * The lower-cased text `search` matches: the id, the reference and every metadata value (the
 * strings, numbers and booleans at any depth).
 *
 * @example
 * searchText({ id: 's1', clientReferenceId: 'U-7', settings: { metadata: { a: 'Gold' } } } as never);
 * // 's1\nu-7\ngold'
 */
export function searchText(
  s: Pick<SessionRecord, 'id' | 'clientReferenceId' | 'settings'>,
): string {
  return [s.id, s.clientReferenceId ?? '', ...scalarsOf(s.settings.metadata)]
    .join('\n')
    .toLowerCase();
}

/**
 * The JSON of a session's settings without the flow (stored apart, by hash).
 *
 * @example
 * settingsJson(session.settings); // '{"metadata":{},"providedData":{},"langs":["en"],…}'
 */
export function settingsJson(settings: SessionRecord['settings']): string {
  const { flow: _flow, ...rest } = settings;
  return JSON.stringify(rest);
}

/**
 * A row as a record; the flow comes from `flowOf` (flows are stored once, by hash).
 *
 * @example
 * rowToSession(row, (hash) => flows.get(hash));
 */
export function rowToSession(r: SessionRow, flowOf: (hash: string) => Flow): SessionRecord {
  const settings = JSON.parse(r.settings) as Omit<SessionRecord['settings'], 'flow'>;
  return {
    id: r.id,
    accountId: r.account_id,
    mode: r.mode,
    status: r.status,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    lastActivityAt: r.last_activity_at,
    flowId: r.flow_id,
    clientReferenceId: r.client_reference_id,
    version: r.version,
    settings: { ...settings, flow: flowOf(r.flow_hash) } as SessionRecord['settings'],
    report: JSON.parse(r.report) as SessionRecord['report'],
    position: JSON.parse(r.position) as SessionRecord['position'],
    rev: r.rev,
  };
}

/** The sort values of a session under each `sortBy`, ending with the tie-breakers. */
export function sortValues(
  s: SessionRecord,
  sortBy: 'createdAt' | 'status' | 'finishedAt',
): (string | number)[] {
  switch (sortBy) {
    case 'createdAt':
      return [s.createdAt, s.id];
    case 'status':
      return [statusRank(s.status), s.createdAt, s.id];
    case 'finishedAt':
      return [s.finishedAt ?? 0, s.createdAt, s.id];
  }
}

/** The lowest rank of a finished session: only these are in `sessions_by_finished`. */
export const FINISHED_RANK = statusRank('complete');

/**
 * Rows of several queries, each in `finishedAt` order already, in that order together: the sort
 * value (0 while unfinished), then creation, then id, as SQLite compares them.
 *
 * @example
 * mergeFinishedOrder([unfinished, finished], 'desc'); // [finished, unfinished]
 */
export function mergeFinishedOrder<R extends Pick<SessionRow, 'finished_at' | 'created_at' | 'id'>>(
  rows: R[],
  order: 'asc' | 'desc',
): R[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort(
    (a, b) =>
      sign *
      ((a.finished_at ?? 0) - (b.finished_at ?? 0) ||
        a.created_at - b.created_at ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  );
}

export const SORT_COLUMNS = {
  createdAt: ['created_at', 'id'],
  status: ['status_rank', 'created_at', 'id'],
  finishedAt: ['finished_sort', 'created_at', 'id'],
} as const;

/**
 * The string, number and boolean values inside a metadata value, at any depth (metadata holds any
 * JSON), as text.
 * @example scalarsOf({ plan: 'gold', seats: 5, tags: ['a', { b: true }] }) // ['gold', '5', 'a', 'true']
 */
export function scalarsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(scalarsOf);
}
