import type {
  AvatarList,
  ClientSecret,
  CreateSessionParams,
  LanguageList,
  ListSessionsParams,
  Session,
  SessionListPage,
  SessionWithSecret,
} from './apiTypes';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
import { send, type FetchLike, type TransportOptions } from './transport';

/**
 * The API version this client's types describe; every request asks for it, so the answers keep
 * these shapes when the service's default moves on.
 */
export const CLIENT_API_VERSION = '2026-11-27';

export interface IdvClientOptions {
  /** `sk_test_…` or `sk_live_…`. Server side only: never ship it to a browser. */
  apiKey: string;
  /** The service's address, e.g. `https://idv.example.com`. */
  baseUrl: string;
  /** Per attempt, in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Retries after 429, 5xx and failed connections (see `RetryPolicy`). */
  retry?: Partial<RetryPolicy>;
  /** Another `fetch` (a proxy agent, a test's). */
  fetch?: FetchLike;
  /** How to wait between attempts (default `setTimeout`). */
  sleep?: (ms: number) => Promise<void>;
}

export interface CreateOptions {
  /**
   * The create's `Idempotency-Key`. Default: a new random UUID per call, sent unchanged on each
   * retry of that call. Pass your own (an order id, say) to make a create safe across your own
   * retries too, for 24 hours.
   */
  idempotencyKey?: string;
}

export interface SessionsApi {
  /** `POST /sessions`: the new session and its first client secret. */
  create(params: CreateSessionParams, options?: CreateOptions): Promise<SessionWithSecret>;
  /** `GET /sessions/{id}`: the session and its current client secret. */
  retrieve(sessionId: string): Promise<SessionWithSecret>;
  /** `GET /sessions/{id}/refresh`: a new client secret; every earlier one stops working. */
  refresh(sessionId: string): Promise<ClientSecret>;
  /**
   * `POST /sessions/{id}/erase`: its data goes, a tombstone (`session.erasedAt`) stays.
   * Idempotent, so safe to retry.
   */
  erase(sessionId: string): Promise<SessionWithSecret>;
  /** One page of `GET /sessions` (pass `cursor` for the next). */
  listPage(params?: ListSessionsParams): Promise<SessionListPage>;
  /** Every page of `GET /sessions` from `params.cursor` on, fetched as the loop asks for it. */
  list(params?: ListSessionsParams): AsyncGenerator<SessionListPage, void, undefined>;
  /** Every session of every page, in the list's order. */
  each(params?: ListSessionsParams): AsyncGenerator<Session, void, undefined>;
}

export interface IdvClient {
  sessions: SessionsApi;
  /** `GET /avatars`. */
  avatars(): Promise<AvatarList>;
  /** `GET /langs`. */
  langs(): Promise<LanguageList>;
}

/**
 * `GET /sessions`'s query string: a list of statuses as one comma list, every other value as is.
 *
 * @example
 * listQuery({ status: ['complete', 'incomplete'], limit: 50 }); // '?status=complete%2Cincomplete&limit=50'
 */
export function listQuery(params: ListSessionsParams = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    q.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const sessionPath = (id: string) => `/sessions/${encodeURIComponent(id)}`;

/**
 * A typed client of the service's API for an integrator's backend. Every call is retried after a
 * 429, a 5xx or a failed connection (honouring `Retry-After`, at most `retry.maxRetries` times);
 * a create carries an `Idempotency-Key`, so its retries never make a second session. Failures
 * reject with `IdvApiError`.
 *
 * @example
 * const idv = createIdvClient({ apiKey: process.env.IDV_KEY!, baseUrl: 'https://idv.example.com' });
 * const { session, clientSecret } = await idv.sessions.create({ flow, clientReferenceId: 'user-42' });
 * redirect(clientSecret.url);
 * for await (const page of idv.sessions.list({ status: 'complete' })) console.log(page.sessions.length);
 */
export function createIdvClient(options: IdvClientOptions): IdvClient {
  const opts: TransportOptions = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    version: CLIENT_API_VERSION,
    timeoutMs: options.timeoutMs ?? 30_000,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: Math.random,
  };
  const get = <T>(path: string) => send<T>(opts, { method: 'GET', path });

  const sessions: SessionsApi = {
    create(params, createOptions = {}) {
      const key = createOptions.idempotencyKey ?? globalThis.crypto.randomUUID();
      return send<SessionWithSecret>(opts, {
        method: 'POST',
        path: '/sessions',
        body: params,
        headers: { 'idempotency-key': key },
      });
    },
    retrieve: (id) => get<SessionWithSecret>(sessionPath(id)),
    refresh: (id) => get<ClientSecret>(`${sessionPath(id)}/refresh`),
    erase: (id) =>
      send<SessionWithSecret>(opts, { method: 'POST', path: `${sessionPath(id)}/erase`, body: {} }),
    listPage: (params) => get<SessionListPage>(`/sessions${listQuery(params)}`),
    async *list(params = {}) {
      let cursor = params.cursor;
      for (;;) {
        const page = await sessions.listPage({ ...params, ...(cursor ? { cursor } : {}) });
        yield page;
        // A cursor that does not move (a page of `limit: 0`) would loop for ever.
        if (!page.hasMore || !page.nextCursor || page.nextCursor === cursor) return;
        cursor = page.nextCursor;
      }
    },
    async *each(params = {}) {
      for await (const page of sessions.list(params)) yield* page.sessions;
    },
  };
  return {
    sessions,
    avatars: () => get<AvatarList>('/avatars'),
    langs: () => get<LanguageList>('/langs'),
  };
}
