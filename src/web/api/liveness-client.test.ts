import { describe, expect, it } from 'vitest';
import { createClientApi } from './client';
import { ClientApiError } from './errors';
import type { TokenStore } from './token';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  type: string | undefined;
  body: unknown;
}

// The page may not use Node's HTTP server (src/web is browser code): a `fetch` that records each
// request and answers from a table with real `Response` objects stands in for the server.
const seen: Seen[] = [];
let answers: Record<string, [number, unknown]> = {};
const base = 'http://idv.test';

const fakeFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const headers = new Headers(init?.headers);
  const text = typeof init?.body === 'string' ? init.body : '';
  const method = init?.method ?? 'GET';
  seen.push({
    method,
    url: url.pathname,
    auth: headers.get('authorization') ?? undefined,
    type: headers.get('content-type') ?? undefined,
    body: text ? JSON.parse(text) : undefined,
  });
  const [status, body] = answers[`${method} ${url.pathname}`] ?? [
    404,
    { error: { type: 'not_found_error', message: 'no' } },
  ];
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
};

const tokens: TokenStore = {
  read: () => ({ token: 'ct_test', secretTag: 'x' }),
  write: () => {},
  clear: () => {},
};

describe('the liveness calls of the client API', () => {
  const api = () => createClientApi({ baseUrl: base, tokens, fetch: fakeFetch });
  const position = { nodeId: null, nodeType: null, status: 'complete', path: [] };

  it('start, frame, finish and status go to the contract routes with the token', async () => {
    seen.length = 0;
    answers = {
      'POST /client/nodes/live%201/liveness/start': [
        200,
        { attemptId: 'att_1', challenges: ['turnLeft'], issuedAt: 1, expiresAt: 2, maxFrames: 24 },
      ],
      'POST /client/nodes/live%201/liveness/att_1/frames': [202, { received: 1 }],
      'POST /client/nodes/live%201/liveness/att_1/finish': [202, { status: 'analysing' }],
      'GET /client/nodes/live%201/liveness/att_1': [200, { status: 'decided', position }],
    };
    const c = api();
    expect((await c.livenessStart('live 1')).challenges).toEqual(['turnLeft']);
    const frame = { role: 'challenge' as const, challengeIndex: 0, t: 1200, image: '/9j/4A==' };
    expect(await c.livenessFrame('live 1', 'att_1', frame)).toEqual({ received: 1 });
    expect(await c.livenessFinish('live 1', 'att_1', { ended: 'done' })).toEqual({
      status: 'analysing',
    });
    expect(await c.livenessStatus('live 1', 'att_1')).toEqual({ status: 'decided', position });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/client/nodes/live%201/liveness/start',
        auth: 'Bearer ct_test',
        type: 'application/json',
        body: {},
      },
      {
        method: 'POST',
        url: '/client/nodes/live%201/liveness/att_1/frames',
        auth: 'Bearer ct_test',
        type: 'application/json',
        body: frame,
      },
      {
        method: 'POST',
        url: '/client/nodes/live%201/liveness/att_1/finish',
        auth: 'Bearer ct_test',
        type: 'application/json',
        body: { ended: 'done' },
      },
      {
        method: 'GET',
        url: '/client/nodes/live%201/liveness/att_1',
        auth: 'Bearer ct_test',
        type: undefined,
        body: undefined,
      },
    ]);
  });

  it('gives a refusal its spec type and code', async () => {
    answers = {
      'POST /client/nodes/live/liveness/start': [
        400,
        {
          error: {
            type: 'invalid_request_error',
            message: 'too many',
            code: 'liveness_attempts_exhausted',
          },
        },
      ],
    };
    const error = await api()
      .livenessStart('live')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientApiError);
    expect((error as ClientApiError).code).toBe('liveness_attempts_exhausted');
    expect((error as ClientApiError).status).toBe(400);
  });

  it('hands the signal to fetch: an abandoned frame upload is a network error, so it is retried', async () => {
    // A server that never answers: the request ends only when its signal fires.
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_, reject) => {
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('The operation was aborted.', 'AbortError')),
        );
      });
    const c = createClientApi({ baseUrl: base, tokens, fetch: hanging });
    const controller = new AbortController();
    const frame = { role: 'between' as const, t: 0, image: '/9j/4A==' };
    const pending = c
      .livenessFrame('live', 'att_1', frame, { signal: controller.signal })
      .catch((e: unknown) => e);
    controller.abort();
    const error = (await pending) as ClientApiError;
    expect(error).toBeInstanceOf(ClientApiError);
    expect(error.isNetwork).toBe(true);
    expect(error.message).toMatch(/abandoned/);
  });
});
