import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { IDEMPOTENCY_SETTLE_MS, IDEMPOTENCY_TTL_MS } from '../sessions/idempotency';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

// POST /sessions under an Idempotency-Key, against the real app over a real SQLite file.
const clock = manualClock(Date.UTC(2026, 0, 5, 9));
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false, clock });
});
afterAll(async () => h.close());

const create = (
  body: unknown,
  key: string | null,
  opts: { apiKey?: string; version?: string } = {},
) =>
  h.call('POST', '/sessions', {
    body,
    ...(opts.apiKey ? { key: opts.apiKey } : {}),
    headers: {
      ...(key !== null ? { 'idempotency-key': key } : {}),
      ...(opts.version ? { 'service-version': opts.version } : {}),
    },
  });

/** Sessions of the test account with this reference, and the events written for them. */
async function stored(ref: string, apiKey = h.keys.test) {
  const list = await h.call('GET', `/sessions?clientReferenceId=${ref}`, { key: apiKey });
  const ids: string[] = list.body.sessions.map((s: { id: string }) => s.id);
  const events = (await Promise.all(ids.map((id) => h.store.listEvents({ sessionId: id })))).flat();
  return { ids, events };
}

let n = 0;
const fresh = () => `ref-${++n}`;

describe('Idempotency-Key on POST /sessions', () => {
  it('answers a repeat with the same status and body, and stores one session and one event', async () => {
    const ref = fresh();
    const body = { flow: MINIMAL_FLOW, clientReferenceId: ref, metadata: { a: '1', b: '2' } };
    const first = await create(body, 'key-repeat');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same content, other key order: the same request.
    const again = await create(
      { metadata: { b: '2', a: '1' }, clientReferenceId: ref, flow: MINIMAL_FLOW },
      'key-repeat',
    );
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const { ids, events } = await stored(ref);
    expect(ids).toEqual([first.body.session.id]);
    expect(events.map((e) => e.type)).toEqual(['session.status']);
  });

  it('refuses the key with another body, and creates nothing for it', async () => {
    const ref = fresh();
    const first = await create({ flow: MINIMAL_FLOW, clientReferenceId: ref }, 'key-other');
    expect(first.status).toBe(200);
    const other = await create(
      { flow: MINIMAL_FLOW, clientReferenceId: ref, metadata: { x: 'y' } },
      'key-other',
    );
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({
      type: 'validation_error',
      code: 'idempotency_key_mismatch',
    });
    expect(other.body.error.message).toMatch(/Idempotency-Key/);
    expect((await stored(ref)).ids).toHaveLength(1);
  });

  it('takes the API version as part of the request', async () => {
    const ref = fresh();
    const body = { flow: MINIMAL_FLOW, clientReferenceId: ref };
    expect((await create(body, 'key-version')).status).toBe(200);
    const legacy = await create(body, 'key-version', { version: '2025-01-01' });
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.code).toBe('idempotency_key_mismatch');
  });

  it('replays a legacy-version answer in its own shape', async () => {
    const ref = fresh();
    const body = { flow: MINIMAL_FLOW, clientReferenceId: ref };
    const first = await create(body, 'key-legacy', { version: '2025-01-01' });
    expect(first.status).toBe(200);
    expect(first.body.session.status).toBe('requiresInput');
    const again = await create(body, 'key-legacy', { version: '2025-01-01' });
    expect(again.body).toEqual(first.body);
  });

  it('gives concurrent requests with one key one session and the same answer', async () => {
    const ref = fresh();
    const body = { flow: MINIMAL_FLOW, clientReferenceId: ref };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => create(body, 'key-concurrent')),
    );
    expect(answers.map((a) => a.status)).toEqual(new Array(8).fill(200));
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    const { ids, events } = await stored(ref);
    expect(ids).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it('keeps keys apart per account and per mode', async () => {
    const ref = fresh();
    const body = { flow: MINIMAL_FLOW, clientReferenceId: ref };
    const test = await create(body, 'key-scope');
    const live = await create(body, 'key-scope', { apiKey: h.keys.live });
    const other = await create(body, 'key-scope', { apiKey: h.keys.otherTest });
    const ids = [test, live, other].map((r) => r.body.session.id);
    expect(new Set(ids).size).toBe(3);
    expect([live, other].map((r) => r.headers.get('idempotent-replayed'))).toEqual([null, null]);
  });

  it('stores nothing for a refused body: the key stays free for a corrected one', async () => {
    const ref = fresh();
    const bad = await create({ flow: [{ id: 'start', type: 'start' }] }, 'key-fixed');
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('validation_error');
    const good = await create({ flow: MINIMAL_FLOW, clientReferenceId: ref }, 'key-fixed');
    expect(good.status).toBe(200);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key', async () => {
    for (const key of ['', 'has space', 'x'.repeat(256), 'é']) {
      const r = await h.call('POST', '/sessions', {
        body: { flow: MINIMAL_FLOW },
        headers: { 'idempotency-key': key },
      });
      expect(r.status, key).toBe(400);
      expect(r.body.error.code).toBe('idempotency_key_invalid');
    }
    const longest = await create({ flow: MINIMAL_FLOW }, 'k'.repeat(255));
    expect(longest.status).toBe(200);
  });

  it('frees a key after 24 hours; the sweeper deletes it', async () => {
    const ref = fresh();
    const body = { flow: MINIMAL_FLOW, clientReferenceId: ref };
    const first = await create(body, 'key-day');
    clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expect((await create(body, 'key-day')).body).toEqual(first.body);
    clock.advance(1);
    const later = await create(body, 'key-day');
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.session.id).not.toBe(first.body.session.id);
    clock.advance(IDEMPOTENCY_TTL_MS);
    await h.app.sweeper.runOnce();
    const left = h.store.db
      .prepare(`SELECT count(*) AS n FROM idempotency_keys WHERE key = 'key-day'`)
      .get() as { n: number };
    expect(left.n).toBe(0);
  });

  it('answers in_use while another process creates the session, and takes over a dead create', async () => {
    const ref = fresh();
    const body = { flow: MINIMAL_FLOW, clientReferenceId: ref };
    // A first request's record, as another process writes it just before storing the session.
    const first = await create(body, 'key-process');
    const row = h.store.db
      .prepare(`SELECT account_id, request_hash FROM idempotency_keys WHERE key = 'key-process'`)
      .get() as { account_id: string; request_hash: string };
    const now = clock.now();
    await h.store.putIdempotencyKey(
      {
        accountId: row.account_id,
        mode: 'test',
        key: 'key-elsewhere',
        requestHash: row.request_hash,
        sessionId: 'sess_not_stored_yet',
        status: 200,
        body: JSON.stringify(first.body),
        createdAt: now,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
      },
      now,
    );
    const busy = await create(body, 'key-elsewhere');
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'idempotency_key_in_use',
    });
    // The other process died before storing its session: after the settle time, a retry creates it.
    clock.advance(IDEMPOTENCY_SETTLE_MS);
    const retry = await create(body, 'key-elsewhere');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body.session.id).not.toBe(first.body.session.id);
    expect((await create(body, 'key-elsewhere')).body).toEqual(retry.body);
  });
});
