/**
 * API versions and every difference between them, in one module (decisions.md, "Versions").
 *
 * Handlers speak only the latest version. At the edge, `responseFor` walks the changes newer than
 * the request's version and undoes each on the way out, and `requestFor` applies the older rules
 * on the way in. Adding a version means adding one `VersionChange` per difference here, never an
 * `if (version …)` in a handler.
 */
import type { ErrorDetail } from './errors';
import { reportBeforeSdkShapes } from './sdk-report-shapes';
import { LEGACY_STATUS, type SessionStatus } from './session';

export const LATEST_VERSION = '2026-11-27';
/** The version before the report took the original product's SDK shapes. */
export const PRE_SDK_VERSION = '2025-09-01';
export const LEGACY_VERSION = '2025-01-01';
/** Newest first. */
export const API_VERSIONS = [LATEST_VERSION, PRE_SDK_VERSION, LEGACY_VERSION] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/**
 * Reads a `Service-Version` header: absent means the latest, unknown means `null`.
 *
 * @example
 * parseVersion(undefined); // '2026-11-27'
 * parseVersion('2025-01-01'); // '2025-01-01'
 * parseVersion('2024-01-01'); // null
 */
export function parseVersion(header: string | undefined): ApiVersion | null {
  if (header === undefined || header.trim() === '') return LATEST_VERSION;
  const v = header.trim();
  return (API_VERSIONS as readonly string[]).includes(v) ? (v as ApiVersion) : null;
}

/**
 * The header the original product's SDK sends instead of `Service-Version`, and the one value it
 * ever sends (hard-coded in SDK 1.0.47). That SDK's types know only the latest statuses, so its
 * pinned date means the latest version (compat.md §1.3, §7 #1).
 */
export const SDK_VERSION_HEADER = 'facesign-version';
export const SDK_PINNED_VERSIONS: Readonly<Record<string, ApiVersion>> = {
  '2024-12-18': LATEST_VERSION,
};

/**
 * Reads the version a request asks for: `Service-Version` first; without it, the SDK's
 * `Facesign-Version` as an alias (its pinned date meaning the latest). Absent: the latest;
 * unknown: `null`, with the header that named it.
 *
 * @example
 * requestedVersion({ serviceVersion: undefined, sdkVersion: '2024-12-18' }); // { version: '2025-09-01', header: 'Facesign-Version' }
 * requestedVersion({ serviceVersion: '2025-01-01', sdkVersion: '2024-12-18' }).version; // '2025-01-01'
 */
export function requestedVersion(h: {
  serviceVersion: string | undefined;
  sdkVersion: string | undefined;
}): { version: ApiVersion | null; header: 'Service-Version' | 'Facesign-Version'; value: string } {
  const blank = (v: string | undefined) => v === undefined || v.trim() === '';
  if (!blank(h.serviceVersion) || blank(h.sdkVersion)) {
    return {
      version: parseVersion(h.serviceVersion),
      header: 'Service-Version',
      value: h.serviceVersion ?? '',
    };
  }
  const value = (h.sdkVersion ?? '').trim();
  return {
    version: SDK_PINNED_VERSIONS[value] ?? parseVersion(value),
    header: 'Facesign-Version',
    value,
  };
}

/** The operations whose bodies differ between versions. */
export type Operation =
  | 'sessions.create'
  | 'sessions.get'
  | 'sessions.list'
  | 'sessions.refresh'
  | 'avatars.list'
  | 'langs.list';

type Json = Record<string, unknown>;
type Mapper = (o: Json) => Json;

interface ResourceMappers {
  session?: Mapper;
  clientSecret?: Mapper;
  avatar?: Mapper;
}

/** What the query of `GET /sessions` carries that a version may read differently. */
export interface VersionedListQuery {
  fromDate?: number;
  toDate?: number;
}

export interface VersionChange {
  /** The first version with the new behaviour; older requests get it undone. */
  introducedIn: ApiVersion;
  description: string;
  /** Rewrites each resource of a response, wherever it appears. */
  resources?: ResourceMappers;
  /** Rewrites a whole response body (after the resources). */
  bodies?: Partial<Record<Operation, (body: unknown) => unknown>>;
  /** Extra problems of a `POST /sessions` body under the older rules. */
  createRules?: (body: Json) => ErrorDetail[];
  /** Reads a `GET /sessions` query under the older rules. */
  listQuery?: (q: VersionedListQuery) => VersionedListQuery;
}

const toSeconds = (v: unknown): unknown => (typeof v === 'number' ? Math.floor(v / 1000) : v);

function secondsIn(o: Json, keys: string[]): Json {
  const out: Json = { ...o };
  for (const k of keys) if (k in out) out[k] = toSeconds(out[k]);
  return out;
}

function mapArray(v: unknown, f: Mapper): unknown {
  return Array.isArray(v) ? v.map((x) => f(x as Json)) : v;
}

function sessionInSeconds(s: Json): Json {
  const out = secondsIn(s, ['createdAt', 'startedAt', 'finishedAt', 'erasedAt']);
  const report = s['report'] as Json | undefined;
  if (report) {
    const r: Json = { ...report };
    r['transcript'] = mapArray(r['transcript'], (t) => secondsIn(t, ['createdAt']));
    r['nodeReports'] = mapArray(r['nodeReports'], (n) => secondsIn(n, ['createdAt']));
    const dds = r['deepfakeDetectionStatus'] as Json | undefined;
    if (dds) r['deepfakeDetectionStatus'] = secondsIn(dds, ['startedAt', 'finishedAt']);
    out['report'] = r;
  }
  return out;
}

/** Newest change first. One entry per difference of decisions.md's version table. */
export const VERSION_CHANGES: readonly VersionChange[] = [
  {
    introducedIn: '2026-11-27',
    description:
      "Report members take the original product's SDK shapes: device, location, deepfakeDetection(Status), " +
      'videoAIAnalysis(Status), media, node reports (docs/decisions.md).',
    resources: {
      session: (s) => {
        const report = s['report'] as Json | undefined;
        return report ? { ...s, report: reportBeforeSdkShapes(report) } : s;
      },
    },
  },
  {
    introducedIn: '2025-09-01',
    description: 'Timestamps in bodies and fromDate/toDate are Unix milliseconds, not seconds.',
    resources: {
      session: sessionInSeconds,
      clientSecret: (c) => secondsIn(c, ['createdAt', 'expireAt']),
      avatar: (a) => secondsIn(a, ['createdAt']),
    },
    listQuery: (q) => ({
      ...q,
      ...(q.fromDate !== undefined ? { fromDate: q.fromDate * 1000 } : {}),
      ...(q.toDate !== undefined ? { toDate: q.toDate * 1000 } : {}),
    }),
  },
  {
    introducedIn: '2025-09-01',
    description:
      'Statuses are created, inProgress, complete, incomplete (were requiresInput, processing, complete, canceled).',
    resources: {
      session: (s) => ({
        ...s,
        status: LEGACY_STATUS[s['status'] as SessionStatus] ?? s['status'],
      }),
    },
  },
  {
    introducedIn: '2025-09-01',
    description:
      'GET /sessions/{id}/refresh answers the client secret itself, not { clientSecret }.',
    bodies: { 'sessions.refresh': (body) => ({ clientSecret: body }) },
  },
  {
    introducedIn: '2025-09-01',
    description: 'zone reads us (was es) in responses.',
    resources: {
      session: (s) => {
        const settings = s['settings'] as Json | undefined;
        if (!settings || settings['zone'] !== 'us') return s;
        return { ...s, settings: { ...settings, zone: 'es' } };
      },
    },
  },
  {
    introducedIn: '2025-09-01',
    description: 'clientReferenceId is optional on POST /sessions (was required).',
    createRules: (body) =>
      typeof body['clientReferenceId'] === 'string'
        ? []
        : [
            {
              path: 'clientReferenceId',
              message: `clientReferenceId is required in version ${LEGACY_VERSION}`,
            },
          ],
  },
];

/** Changes to undo for a request made with `version` (newest first). */
function changesAfter(version: ApiVersion): VersionChange[] {
  return VERSION_CHANGES.filter((c) => c.introducedIn > version);
}

function applyResources(op: Operation, body: unknown, m: ResourceMappers): unknown {
  const b = body as Json;
  const session = m.session ?? ((x: Json) => x);
  const secret = m.clientSecret ?? ((x: Json) => x);
  const avatar = m.avatar ?? ((x: Json) => x);
  switch (op) {
    case 'sessions.create':
    case 'sessions.get':
      return {
        ...b,
        session: session(b['session'] as Json),
        clientSecret: secret(b['clientSecret'] as Json),
      };
    case 'sessions.list':
      return { ...b, sessions: mapArray(b['sessions'], session) };
    case 'sessions.refresh':
      return secret(b);
    case 'avatars.list':
      return { ...b, avatars: mapArray(b['avatars'], avatar) };
    case 'langs.list':
      return b;
  }
}

/**
 * Turns a latest-version response body into the body of `version`.
 *
 * @example
 * responseFor('2025-01-01', 'sessions.refresh', { secret: 'cs_x', createdAt: 1000, expireAt: 3601000, url: 'u' });
 * // { clientSecret: { secret: 'cs_x', createdAt: 1, expireAt: 3601, url: 'u' } }
 */
export function responseFor(version: ApiVersion, op: Operation, body: unknown): unknown {
  let out = body;
  for (const change of changesAfter(version)) {
    if (change.resources) out = applyResources(op, out, change.resources);
    const whole = change.bodies?.[op];
    if (whole) out = whole(out);
  }
  return out;
}

/**
 * The extra problems of a `POST /sessions` body under the rules of `version`.
 *
 * @example
 * createProblemsFor('2025-01-01', { flow: [] }); // [{ path: 'clientReferenceId', … }]
 * createProblemsFor('2025-09-01', { flow: [] }); // []
 */
export function createProblemsFor(version: ApiVersion, body: Json): ErrorDetail[] {
  return changesAfter(version).flatMap((c) => c.createRules?.(body) ?? []);
}

/**
 * Reads the versioned parts of a `GET /sessions` query into the latest meaning (milliseconds).
 *
 * @example
 * listQueryFor('2025-01-01', { fromDate: 1700000000 }); // { fromDate: 1700000000000 }
 */
export function listQueryFor(version: ApiVersion, q: VersionedListQuery): VersionedListQuery {
  let out = q;
  for (const change of changesAfter(version)) if (change.listQuery) out = change.listQuery(out);
  return out;
}

/**
 * Where a `fromDate`/`toDate` plainly uses the other unit than `version` reads, the problem that
 * says so (compat.md §7 #31: the original SDK states no unit, so its users may send seconds).
 * Read in milliseconds, a value below 10^11 would fall before March 1973; read in seconds, a value
 * above it after the year 5000: neither is a date a session can have, so it is refused, not
 * misread.
 *
 * @example
 * dateUnitProblems('2025-09-01', { fromDate: 1700000000 })[0]?.message; // 'fromDate 1700000000 looks like Unix seconds; …'
 * dateUnitProblems('2025-09-01', { fromDate: 1700000000000 }); // []
 */
export function dateUnitProblems(version: ApiVersion, q: VersionedListQuery): ErrorDetail[] {
  const inSeconds = listQueryFor(version, { fromDate: 1 }).fromDate === 1000;
  const problems: ErrorDetail[] = [];
  for (const key of ['fromDate', 'toDate'] as const) {
    const v = q[key];
    if (v === undefined || v === 0) continue;
    if (!inSeconds && v < SECONDS_OR_MS_BOUNDARY) {
      problems.push({
        path: key,
        message:
          `${key} ${v} looks like Unix seconds; version ${version} reads Unix milliseconds: ` +
          `send ${v * 1000} (or Service-Version ${LEGACY_VERSION}, which reads seconds)`,
      });
    } else if (inSeconds && v >= SECONDS_OR_MS_BOUNDARY) {
      problems.push({
        path: key,
        message:
          `${key} ${v} looks like Unix milliseconds; version ${version} reads Unix seconds: ` +
          `send ${Math.floor(v / 1000)} (or Service-Version ${LATEST_VERSION}, which reads milliseconds)`,
      });
    }
  }
  return problems;
}

/** 10^11: in milliseconds March 1973, in seconds the year 5138. */
const SECONDS_OR_MS_BOUNDARY = 1e11;
