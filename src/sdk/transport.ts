import { IdvApiError, type ApiErrorType } from './apiError';
import type { ErrorBody } from './apiTypes';
import { isRetryable, parseRetryAfter, retryDelay, type RetryPolicy } from './retry';

/** The `fetch` the client sends with (the global one unless given). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** The service's address, e.g. `https://idv.example.com` (a trailing slash is fine). */
  baseUrl: string;
  apiKey: string;
  /** Sent as `Service-Version` on every request. */
  version: string;
  /** Per attempt. */
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: FetchLike;
  /** How the client waits between attempts (tests pass one that moves their clock). */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** From the base URL, with its query. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const KNOWN_TYPES = new Set<ApiErrorType>([
  'validation_error',
  'authentication_error',
  'not_found_error',
  'rate_limit_error',
  'api_error',
]);

function errorOf(res: Response, text: string, attempts: number, now: number): IdvApiError {
  let body: Partial<ErrorBody> | null = null;
  try {
    body = JSON.parse(text) as Partial<ErrorBody>;
  } catch {
    // A proxy's HTML page, say: described below by its status.
  }
  const e = body?.error;
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'), now);
  return new IdvApiError({
    type:
      e && KNOWN_TYPES.has(e.type as ApiErrorType)
        ? (e.type as ApiErrorType)
        : res.status >= 500
          ? 'api_error'
          : 'validation_error',
    status: res.status,
    message:
      typeof e?.message === 'string' ? e.message : `HTTP ${res.status}: ${text.slice(0, 200)}`,
    code: e?.code,
    details: e?.details,
    retryAfter: retryAfter === undefined ? undefined : retryAfter / 1000,
    attempts,
  });
}

/** A 2xx answer's JSON; one that is not JSON is the service's fault (`api_error`). */
function parsed<T>(text: string, status: number, attempts: number): { value: T } | IdvApiError {
  try {
    return { value: JSON.parse(text) as T };
  } catch {
    return new IdvApiError({
      type: 'api_error',
      status,
      message: `The answer (HTTP ${status}) is not JSON: ${text.slice(0, 200)}`,
      attempts,
    });
  }
}

/**
 * Sends one API call, again after a 429, a 5xx or a failed connection as `opts.retry` allows
 * (honouring `Retry-After`), and resolves with its JSON answer or rejects with an `IdvApiError`.
 * The same request, headers included, is sent on every attempt, so a create's
 * `Idempotency-Key` makes its retries safe.
 *
 * @example
 * const langs = await send<LanguageList>(opts, { method: 'GET', path: '/langs' });
 */
export async function send<T>(opts: TransportOptions, req: ApiRequest): Promise<T> {
  const url = opts.baseUrl.replace(/\/+$/, '') + req.path;
  const headers: Record<string, string> = {
    authorization: `Bearer ${opts.apiKey}`,
    accept: 'application/json',
    'service-version': opts.version,
    ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...req.headers,
  };
  const body = req.body === undefined ? undefined : JSON.stringify(req.body);
  for (let attempt = 1; ; attempt++) {
    let error: IdvApiError | { value: T };
    try {
      const res = await opts.fetch(url, {
        method: req.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const text = await res.text();
      error = res.ok
        ? parsed<T>(text, res.status, attempt)
        : errorOf(res, text, attempt, Date.now());
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      error = new IdvApiError({
        type: 'network_error',
        status: 0,
        message: timedOut
          ? `No answer from ${url} within ${opts.timeoutMs} ms`
          : `Could not reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
        attempts: attempt,
        cause,
      });
    }
    if (!(error instanceof IdvApiError)) return error.value;
    const wait = isRetryable(error.status)
      ? retryDelay(
          attempt,
          error.retryAfter === undefined ? undefined : error.retryAfter * 1000,
          opts.retry,
          opts.random,
        )
      : null;
    if (wait === null) throw error;
    await opts.sleep(wait);
  }
}
