// The package's own typed client (`open-idv/sdk`, imported by its published name), against the
// real app listening on a loopback port over a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_API_VERSION,
  IdvApiError,
  createIdvClient,
  verifyWebhookSignature,
  type FetchLike,
  type IdvClientOptions,
} from 'open-idv/sdk';
import { LATEST_VERSION } from '../../core/api';
import { manualClock } from '../clock';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

const flow = MINIMAL_FLOW as unknown as Parameters<
  ReturnType<typeof createIdvClient>['sessions']['create']
>[0]['flow'];

/** Every request the client sent and what came back, through the real `fetch`. */
function recordingFetch(fail?: (call: number, res: Response | null) => Error | null) {
  const calls: { headers: Record<string, string>; status: number; retryAfter: string | null }[] =
    [];
  const fetcher: FetchLike = async (input, init) => {
    const res = await fetch(input, init);
    calls.push({
      headers: init.headers as Record<string, string>,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
    });
    const err = fail?.(calls.length, res);
    if (err) {
      await res.arrayBuffer();
      throw err;
    }
    return res;
  };
  return { calls, fetcher };
}

describe('the typed client', () => {
  let h: Harness;
  const client = (opts: Partial<IdvClientOptions> = {}) =>
    createIdvClient({ apiKey: h.keys.test, baseUrl: h.url, ...opts });
  beforeAll(async () => {
    h = await startHarness({ rateLimits: false });
  });
  afterAll(async () => h.close());

  it('asks for the version its types describe', () => {
    expect(CLIENT_API_VERSION).toBe(LATEST_VERSION);
  });

  it('creates, retrieves, refreshes and erases a session; lists avatars and languages', async () => {
    const { calls, fetcher } = recordingFetch();
    // A trailing slash on the address is fine.
    const idv = client({ baseUrl: `${h.url}/`, fetch: fetcher });
    const created = await idv.sessions.create({ flow, clientReferenceId: 'sdk-crud' });
    expect(created.session.status).toBe('created');
    expect(created.session.settings.clientReferenceId).toBe('sdk-crud');
    expect(created.clientSecret.url).toContain('/verify?client_secret=');
    expect(calls[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls[0]!.headers['service-version']).toBe(CLIENT_API_VERSION);

    const got = await idv.sessions.retrieve(created.session.id);
    expect(got.session.id).toBe(created.session.id);
    expect(got.clientSecret.secret).toBe(created.clientSecret.secret);

    const fresh = await idv.sessions.refresh(created.session.id);
    expect(fresh.secret).not.toBe(created.clientSecret.secret);
    expect((await idv.sessions.retrieve(created.session.id)).clientSecret.secret).toBe(
      fresh.secret,
    );

    const erased = await idv.sessions.erase(created.session.id);
    expect(erased.session.erasedAt).toEqual(expect.any(Number));
    expect(erased.session.settings.clientReferenceId).toBeUndefined();
    expect((await idv.sessions.erase(created.session.id)).session.erasedAt).toBe(
      erased.session.erasedAt,
    );

    const { langs } = await idv.langs();
    expect(langs.map((l) => l.id)).toContain('pt');
    const { avatars } = await idv.avatars();
    expect(avatars.length).toBeGreaterThan(0);
    expect(typeof avatars[0]!.createdAt).toBe('number');
  });

  it('walks the list page by page, and session by session', async () => {
    const idv = client();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await idv.sessions.create({ flow, clientReferenceId: 'sdk-list' })).session.id);
    }
    const sizes: number[] = [];
    for await (const page of idv.sessions.list({ clientReferenceId: 'sdk-list', limit: 2 })) {
      sizes.push(page.sessions.length);
    }
    expect(sizes).toEqual([2, 2, 1]);
    const each: string[] = [];
    for await (const s of idv.sessions.each({
      clientReferenceId: 'sdk-list',
      limit: 2,
      sortOrder: 'asc',
      status: ['created', 'inProgress'],
    })) {
      each.push(s.id);
    }
    expect(each).toEqual(ids);
  });

  it('rejects with the API error, without retrying a 4xx', async () => {
    const { calls, fetcher } = recordingFetch();
    const idv = client({ fetch: fetcher });
    const missing = await idv.sessions.retrieve('sess_nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(IdvApiError);
    expect(missing).toMatchObject({
      type: 'not_found_error',
      status: 404,
      message: 'Session not found',
      attempts: 1,
    });
    const bad = await idv.sessions
      .create({ flow: [{ id: 'start', type: 'start', outcome: 'x' }] as typeof flow })
      .catch((e: unknown) => e as IdvApiError);
    expect(bad).toMatchObject({ type: 'validation_error', status: 400 });
    expect((bad as IdvApiError).details?.length).toBeGreaterThan(0);
    expect(calls).toHaveLength(2);
    const wrongKey = await createIdvClient({ apiKey: 'sk_test_nope', baseUrl: h.url })
      .langs()
      .catch((e: unknown) => e);
    expect(wrongKey).toMatchObject({ type: 'authentication_error', code: 'api_key_invalid' });
  });

  it('retries a 5xx with the same idempotency key, and makes one session', async () => {
    const real = h.store.createSession;
    let failures = 1;
    // The store refuses the first write (a full disk, say): the service answers 500.
    h.store.createSession = async (...args) => {
      if (failures-- > 0) throw new Error('disk full');
      return real.apply(h.store, args);
    };
    const sleeps: number[] = [];
    const { calls, fetcher } = recordingFetch();
    try {
      const idv = client({ fetch: fetcher, sleep: async (ms) => void sleeps.push(ms) });
      const r = await idv.sessions.create({ flow, clientReferenceId: 'sdk-500' });
      expect(calls.map((c) => c.status)).toEqual([500, 200]);
      expect(calls[1]!.headers['idempotency-key']).toBe(calls[0]!.headers['idempotency-key']);
      expect(sleeps).toHaveLength(1);
      const listed = await idv.sessions.listPage({ clientReferenceId: 'sdk-500' });
      expect(listed.sessions.map((s) => s.id)).toEqual([r.session.id]);
    } finally {
      h.store.createSession = real;
    }
  });

  it('retries a create whose answer was lost and gets the stored one: no second session', async () => {
    // The service stores the session and answers; the connection drops before the answer is read.
    const { calls, fetcher } = recordingFetch((n) =>
      n === 1 ? new TypeError('socket hang up') : null,
    );
    const idv = client({ fetch: fetcher, sleep: async () => {} });
    const r = await idv.sessions.create({ flow, clientReferenceId: 'sdk-lost' });
    expect(calls.map((c) => c.status)).toEqual([200, 200]);
    const listed = await idv.sessions.listPage({ clientReferenceId: 'sdk-lost' });
    expect(listed.sessions.map((s) => s.id)).toEqual([r.session.id]);
    const events = await h.store.listEvents({ sessionId: r.session.id });
    expect(events).toHaveLength(1);
  });

  it('gives up after its bounded retries, backing off each time', async () => {
    const sleeps: number[] = [];
    const idv = client({
      fetch: async () => {
        throw new TypeError('connect ECONNREFUSED');
      },
      sleep: async (ms) => void sleeps.push(ms),
      retry: { maxRetries: 3, baseDelayMs: 100 },
    });
    const err = await idv.langs().catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'network_error', status: 0, attempts: 4 });
    expect((err as Error).message).toMatch(/ECONNREFUSED/);
    expect(sleeps).toHaveLength(3);
    // Equal jitter: between half and all of 100, 200, 400 ms.
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  it('re-exports the webhook helpers', () => {
    expect(typeof verifyWebhookSignature).toBe('function');
  });
});

describe('the typed client under the rate limit', () => {
  const clock = manualClock(Date.UTC(2026, 0, 5, 9));
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ clock, rateLimits: { test: 2, windowMs: 60_000 } });
  });
  afterAll(async () => h.close());

  it("waits the service's Retry-After, then succeeds", async () => {
    const { calls, fetcher } = recordingFetch();
    const sleeps: number[] = [];
    const idv = createIdvClient({
      apiKey: h.keys.test,
      baseUrl: h.url,
      fetch: fetcher,
      // Waiting moves the server's clock: the window really passes.
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
      },
    });
    await idv.langs();
    clock.advance(1000);
    await idv.langs();
    const third = await idv.avatars();
    expect(third.avatars.length).toBeGreaterThan(0);
    expect(calls.map((c) => c.status)).toEqual([200, 200, 429, 200]);
    expect(calls[2]!.retryAfter).toMatch(/^\d+$/);
    expect(sleeps).toEqual([Number(calls[2]!.retryAfter) * 1000]);
  });

  it('does not wait longer than maxDelayMs: the 429 is thrown with its Retry-After', async () => {
    const sleeps: number[] = [];
    const idv = createIdvClient({
      apiKey: h.keys.test,
      baseUrl: h.url,
      retry: { maxDelayMs: 1000 },
      sleep: async (ms) => void sleeps.push(ms),
    });
    // A window of its own: two requests pass, the third is told to wait most of a minute.
    clock.advance(120_000);
    await idv.langs();
    await idv.langs();
    const err = await idv.langs().catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'rate_limit_error', status: 429, attempts: 1 });
    expect((err as IdvApiError).retryAfter).toBeGreaterThan(1);
    expect(sleeps).toEqual([]);
  });
});
