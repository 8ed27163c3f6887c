import type { TokenStore } from './token';

/** One request as `recordingFetch` saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  auth: string | null;
  type: string | null;
  body: unknown;
}

/**
 * A `fetch` for the client API's tests (src/web is browser code: no Node HTTP server here): it
 * records each request and answers from a table of `"METHOD /path": [status, body]` with real
 * `Response` objects; anything else is a 404 in the service's error format.
 *
 * @example
 * const r = recordingFetch({ 'POST /client/exit': [200, { position }] });
 * await createClientApi({ tokens: fixedTokens('ct_1'), fetch: r.fetch }).exit();
 * r.seen[0].auth; // 'Bearer ct_1'
 */
export function recordingFetch(answers: Record<string, [number, unknown]>) {
  const seen: SeenRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const method = init?.method ?? 'GET';
    const raw = init?.body;
    seen.push({
      method,
      url: url.pathname,
      auth: headers.get('authorization'),
      type: headers.get('content-type'),
      body:
        raw instanceof Blob
          ? { blob: await raw.text(), blobType: raw.type }
          : typeof raw === 'string'
            ? JSON.parse(raw)
            : undefined,
    });
    const [status, body] = answers[`${method} ${url.pathname}`] ?? [
      404,
      { error: { type: 'not_found_error', message: 'no' } },
    ];
    return new Response(body === null ? null : JSON.stringify(body), { status });
  };
  return { seen, fetch };
}

/**
 * A token store that always holds `token`.
 *
 * @example
 * createClientApi({ tokens: fixedTokens('ct_test'), fetch });
 */
export function fixedTokens(token: string): TokenStore {
  return { read: () => ({ token, secretTag: 'x' }), write: () => {}, clear: () => {} };
}
