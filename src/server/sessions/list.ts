import {
  API_LIMITS,
  SORT_KEYS,
  dateUnitProblems,
  listQueryFor,
  parseStatus,
  type ApiVersion,
  type ErrorDetail,
  type SessionStatus,
  type SortKey,
  type SortOrder,
} from '../../core/api';
import type { ListQuery } from '../store/types';

type RawQuery = Record<string, string | string[] | undefined>;

const KNOWN = new Set([
  'limit',
  'cursor',
  'flowId',
  'clientReferenceId',
  'status',
  'fromDate',
  'toDate',
  'sortBy',
  'sortOrder',
  'search',
  'includeTotal',
]);

interface CursorBody {
  /** sort key */
  b: SortKey;
  /** order */
  o: SortOrder;
  /** values after which the page starts */
  a: (string | number)[] | null;
}

/**
 * The opaque `nextCursor`: the sort and the last row's sort values, base64url JSON. It carries
 * no filter; the same filters are sent again with it.
 *
 * @example
 * encodeCursor('createdAt', 'desc', [1700000000000, 'sess_1']);
 */
export function encodeCursor(b: SortKey, o: SortOrder, a: (string | number)[] | null): string {
  const body: CursorBody = { b, o, a };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * Reads a cursor back; null when it is not one of ours.
 *
 * @example
 * decodeCursor(encodeCursor('status', 'asc', null)); // { b: 'status', o: 'asc', a: null }
 */
export function decodeCursor(cursor: string): CursorBody | null {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
    if (!v || typeof v !== 'object') return null;
    if (!SORT_KEYS.includes(v.b as SortKey)) return null;
    if (v.o !== 'asc' && v.o !== 'desc') return null;
    const width = v.b === 'createdAt' ? 2 : 3;
    if (v.a !== null) {
      if (!Array.isArray(v.a) || v.a.length !== width) return null;
      const last = v.a[width - 1];
      if (typeof last !== 'string') return null;
      if (!v.a.slice(0, -1).every((x) => typeof x === 'number' && Number.isFinite(x))) return null;
    }
    return { b: v.b as SortKey, o: v.o, a: v.a ?? null };
  } catch {
    return null;
  }
}

export type ParsedList = { ok: true; query: ListQuery } | { ok: false; problems: ErrorDetail[] };

/**
 * Reads the query of `GET /sessions` (every parameter of the spec, `status` as one value, a
 * comma list or a repeated parameter, in either naming), reporting every problem at once.
 *
 * @example
 * parseListQuery({ limit: '10', status: 'created,processing' }, '2025-09-01');
 */
export function parseListQuery(raw: RawQuery, version: ApiVersion): ParsedList {
  const problems: ErrorDetail[] = [];
  const one = (name: string): string | undefined => {
    const v = raw[name];
    if (Array.isArray(v)) {
      problems.push({ path: name, message: `${name} may be given only once` });
      return undefined;
    }
    return v;
  };
  for (const name of Object.keys(raw)) {
    if (!KNOWN.has(name))
      problems.push({ path: name, message: `unknown query parameter "${name}"` });
  }
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    if (!/^-?\d{1,16}$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push({ path: name, message: `${name} must be an integer from ${min} to ${max}` });
      return undefined;
    }
    return Number(v);
  };

  const limit = int('limit', 0, API_LIMITS.pageSizeMax) ?? API_LIMITS.pageSizeDefault;
  const fromDate = int('fromDate', 0, Number.MAX_SAFE_INTEGER);
  const toDate = int('toDate', 0, Number.MAX_SAFE_INTEGER);
  problems.push(
    ...dateUnitProblems(version, {
      ...(fromDate !== undefined ? { fromDate } : {}),
      ...(toDate !== undefined ? { toDate } : {}),
    }),
  );

  const sortByRaw = one('sortBy');
  if (sortByRaw !== undefined && !SORT_KEYS.includes(sortByRaw as SortKey)) {
    problems.push({ path: 'sortBy', message: `sortBy must be one of ${SORT_KEYS.join(', ')}` });
  }
  const sortOrderRaw = one('sortOrder');
  if (sortOrderRaw !== undefined && sortOrderRaw !== 'asc' && sortOrderRaw !== 'desc') {
    problems.push({ path: 'sortOrder', message: 'sortOrder must be asc or desc' });
  }

  let after: (string | number)[] | null = null;
  let sortBy = (sortByRaw as SortKey | undefined) ?? 'createdAt';
  let sortOrder = (sortOrderRaw as SortOrder | undefined) ?? 'desc';
  const cursorRaw = one('cursor');
  if (cursorRaw !== undefined && cursorRaw !== '') {
    const c = decodeCursor(cursorRaw);
    if (!c) {
      problems.push({ path: 'cursor', message: 'cursor is not a nextCursor of this API' });
    } else {
      if (
        (sortByRaw !== undefined && sortByRaw !== c.b) ||
        (sortOrderRaw !== undefined && sortOrderRaw !== c.o)
      ) {
        problems.push({
          path: 'cursor',
          message: `cursor was made for sortBy=${c.b}&sortOrder=${c.o}; send the same or none`,
        });
      }
      sortBy = c.b;
      sortOrder = c.o;
      after = c.a;
    }
  }

  const statuses: SessionStatus[] = [];
  const rawStatus = raw['status'];
  const statusValues = (
    Array.isArray(rawStatus) ? rawStatus : rawStatus !== undefined ? [rawStatus] : []
  )
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const v of statusValues) {
    const s = parseStatus(v);
    if (!s) {
      problems.push({
        path: 'status',
        message: `unknown status "${v}" (created, inProgress, complete, incomplete or requiresInput, processing, canceled)`,
      });
    } else if (!statuses.includes(s)) {
      statuses.push(s);
    }
  }

  const search = one('search');
  if (search !== undefined && search.length > API_LIMITS.maxSearchLength) {
    problems.push({
      path: 'search',
      message: `search is at most ${API_LIMITS.maxSearchLength} characters`,
    });
  }
  const includeTotalRaw = one('includeTotal');
  let includeTotal = false;
  if (includeTotalRaw !== undefined) {
    if (['true', '1'].includes(includeTotalRaw)) includeTotal = true;
    else if (!['false', '0', ''].includes(includeTotalRaw)) {
      problems.push({ path: 'includeTotal', message: 'includeTotal must be true or false' });
    }
  }
  const flowId = one('flowId');
  const clientReferenceId = one('clientReferenceId');

  if (problems.length) return { ok: false, problems };
  const dates = listQueryFor(version, {
    ...(fromDate !== undefined ? { fromDate } : {}),
    ...(toDate !== undefined ? { toDate } : {}),
  });
  const query: ListQuery = {
    limit,
    sortBy,
    sortOrder,
    after,
    includeTotal,
    ...(flowId !== undefined ? { flowId } : {}),
    ...(clientReferenceId !== undefined ? { clientReferenceId } : {}),
    ...(statuses.length ? { statuses } : {}),
    ...dates,
    ...(search ? { search: search.toLowerCase() } : {}),
  };
  return { ok: true, query };
}
