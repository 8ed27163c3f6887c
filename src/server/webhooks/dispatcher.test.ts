import { afterEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { parseSignatureHeader, verifyWebhookSignature } from '../../sdk/signature';
import { manualClock } from '../clock';
import { secretRecord, sessionRecord } from '../store/records';
import {
  createWebhookDispatcher,
  type DispatcherOptions,
  type WebhookDispatcher,
} from './dispatcher';
import { EMBEDDED_SPELLINGS } from './embedded-ipv4.cases';
import { registerEndpoint, rotateEndpointSecret } from './endpoints';
import { DEFAULT_RETRY_DELAYS_MS } from './retry';
import { createSqliteWebhookStore, watchOutbox } from './sqlite-store';
import type { WebhookStore } from './store';
import {
  closedPort,
  openTempStore,
  startReceiver,
  type Receiver,
  type TempStore,
} from './test-support';
import { promised } from '../store/promised';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function setup(): { t: TempStore; store: WebhookStore } {
  const t = openTempStore();
  cleanups.push(() => t.close());
  return { t, store: createSqliteWebhookStore(t.db) };
}

async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

function dispatcher(opts: DispatcherOptions): WebhookDispatcher {
  const d = createWebhookDispatcher({ pollIntervalMs: 20, ...opts });
  cleanups.push(() => d.stop());
  return d;
}

async function endpoint(
  store: WebhookStore,
  url: string,
  extra: { events?: string; mode?: string } = {},
) {
  const r = await registerEndpoint(promised(store), {
    accountId: 'acct_a',
    mode: extra.mode ?? 'test',
    url,
    ...(extra.events ? { events: extra.events } : {}),
    policy: 'local',
    now: Date.now(),
  });
  if (!r.ok) throw new Error(r.problems.join('; '));
  return r;
}

/** Waits until the event's delivery has left `pending`, polling the store. */
async function settled(store: WebhookStore, eventId: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const d = store.getEvent(eventId)?.deliveries[0];
    if (d && d.status !== 'pending') return d;
    if (Date.now() > until) throw new Error(`delivery of ${eventId} still pending`);
    await sleep(10);
  }
}

const gaps = (r: Receiver) => r.requests.slice(1).map((q, i) => q.at - r.requests[i]!.at);

describe('retry rules against real receivers (shortened delays)', () => {
  const delays = [40, 60, 80, 100, 120];

  it('500: one attempt and five retries, each after its delay, then failed', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 500);
    await endpoint(store, r.url);
    const id = t.event();
    dispatcher({ store, retryDelaysMs: delays }).start();
    const d = await settled(store, id);
    await sleep(200); // nothing more comes
    expect(r.requests).toHaveLength(6);
    expect(d).toMatchObject({ status: 'failed', attempts: 6, lastStatusCode: 500 });
    gaps(r).forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(delays[i]! - 15));
    // Every attempt carries the same event, byte for byte.
    expect(new Set(r.requests.map((q) => q.body.toString())).size).toBe(1);
    expect(JSON.parse(r.requests[0]!.body.toString()).id).toBe(id);
    expect(store.listAttempts(id).map((a) => a.verdict)).toEqual([
      ...Array(5).fill('retry'),
      'failed',
    ]);
  });

  it('404: one attempt, no retry', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 404);
    await endpoint(store, r.url);
    const id = t.event();
    dispatcher({ store, retryDelaysMs: delays }).start();
    const d = await settled(store, id);
    await sleep(300);
    expect(r.requests).toHaveLength(1);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 404 });
  });

  it('301: one attempt, the redirect is not followed, no retry', async () => {
    const { t, store } = setup();
    const r = await receiver((req) => (req.path === '/hook' ? 301 : 200));
    await endpoint(store, r.url);
    const id = t.event();
    dispatcher({ store, retryDelaysMs: delays }).start();
    const d = await settled(store, id);
    await sleep(300);
    expect(r.requests.map((q) => q.path)).toEqual(['/hook']);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 301 });
  });

  it('a hanging receiver: each attempt times out and is retried, then failed', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 'hang');
    await endpoint(store, r.url);
    const id = t.event();
    dispatcher({ store, retryDelaysMs: [30, 30], timeoutMs: 150 }).start();
    const d = await settled(store, id);
    await sleep(200);
    expect(r.requests).toHaveLength(3);
    expect(d).toMatchObject({ status: 'failed', attempts: 3, lastError: 'timeout' });
    gaps(r).forEach((gap) => expect(gap).toBeGreaterThanOrEqual(150 + 30 - 15));
  });

  it('a closed port: refused connections are retried, then failed', async () => {
    const { t, store } = setup();
    await endpoint(store, `http://127.0.0.1:${await closedPort()}/hook`);
    const id = t.event();
    dispatcher({ store, retryDelaysMs: delays }).start();
    const d = await settled(store, id);
    await sleep(200);
    const attempts = store.listAttempts(id);
    expect(attempts).toHaveLength(6);
    expect(attempts.every((a) => a.error?.startsWith('refused'))).toBe(true);
    expect(d).toMatchObject({ status: 'failed', attempts: 6, lastStatusCode: null });
    attempts.slice(1).forEach((a, i) => {
      expect(a.startedAt - attempts[i]!.startedAt).toBeGreaterThanOrEqual(delays[i]!);
    });
  });

  it('any 2xx acknowledges', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 204);
    await endpoint(store, r.url);
    const id = t.event();
    dispatcher({ store, retryDelaysMs: delays }).start();
    expect(await settled(store, id)).toMatchObject({ status: 'delivered', attempts: 1 });
    await sleep(150);
    expect(r.requests).toHaveLength(1);
  });

  it('a 500 then 200 is delivered on the retry', async () => {
    const { t, store } = setup();
    const r = await receiver(() => (r.requests.length === 1 ? 503 : 200));
    await endpoint(store, r.url);
    const id = t.event();
    dispatcher({ store, retryDelaysMs: delays }).start();
    expect(await settled(store, id)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(r.requests).toHaveLength(2);
  });
});

describe('the real default schedule, through an injected clock', () => {
  it('retries exactly 1 min, 5 min, 15 min, 1 h and 6 h after each failure, then stops', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 500);
    await endpoint(store, r.url);
    const clock = manualClock(1_700_000_000_000);
    const d = dispatcher({ store, clock }); // not started: driven by runUntilIdle
    const id = t.event();
    const stamps: number[] = [];
    const attemptTimes = () =>
      r.requests.map(
        (q) => parseSignatureHeader(String(q.headers['x-service-signature']))!.timestamp,
      );

    await d.runUntilIdle();
    stamps.push(clock.now());
    expect(r.requests).toHaveLength(1);
    for (const delay of DEFAULT_RETRY_DELAYS_MS) {
      clock.advance(delay - 1);
      await d.runUntilIdle();
      expect(r.requests).toHaveLength(stamps.length); // one millisecond early: nothing
      clock.advance(1);
      await d.runUntilIdle();
      stamps.push(clock.now());
      expect(r.requests).toHaveLength(stamps.length);
    }
    clock.advance(7 * 24 * 60 * 60_000);
    await d.runUntilIdle();
    expect(r.requests).toHaveLength(6);
    expect(attemptTimes()).toEqual(stamps);
    expect(stamps.slice(1).map((s, i) => s - stamps[i]!)).toEqual([
      60_000, 300_000, 900_000, 3_600_000, 21_600_000,
    ]);
    expect(store.getEvent(id)!.deliveries[0]).toMatchObject({ status: 'failed', attempts: 6 });
  });
});

describe('signatures and rotation', () => {
  it('signs the exact bytes sent, and the SDK accepts them with the endpoint secret', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    const { secret } = await endpoint(store, r.url);
    const id = t.event();
    dispatcher({ store }).start();
    await r.waitFor(1);
    const q = r.requests[0]!;
    expect(q.headers['content-type']).toBe('application/json');
    const header = q.headers['x-service-signature'];
    expect(verifyWebhookSignature({ rawBody: q.body, header, secret }).ok).toBe(true);
    expect(verifyWebhookSignature({ rawBody: q.body, header, secret: 'whsec_other' }).ok).toBe(
      false,
    );
    const body = JSON.parse(q.body.toString());
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'id', 'sessionId', 'type']);
    expect(body).toMatchObject({ id, type: 'session.status' });
  });

  it('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    const clock = manualClock(1_700_000_000_000);
    const { endpoint: ep, secret: oldSecret } = await endpoint(store, r.url);
    const d = dispatcher({ store, clock });
    const rotated = (await rotateEndpointSecret(promised(store), ep.id, clock.now()))!;
    const newSecret = rotated.secret;
    expect(newSecret).not.toBe(oldSecret);

    const check = (q: Receiver['requests'][number], secret: string) =>
      verifyWebhookSignature({
        rawBody: q.body,
        header: q.headers['x-service-signature'],
        secret,
        now: clock.now(),
      }).ok;

    t.event();
    await d.runUntilIdle();
    const during = r.requests[0]!;
    expect(
      parseSignatureHeader(String(during.headers['x-service-signature']))!.signatures,
    ).toHaveLength(2);
    expect(check(during, oldSecret)).toBe(true);
    expect(check(during, newSecret)).toBe(true);

    clock.advance(24 * 60 * 60_000 - 1);
    t.event();
    await d.runUntilIdle();
    expect(check(r.requests[1]!, oldSecret)).toBe(true);

    clock.advance(1);
    t.event();
    await d.runUntilIdle();
    const after = r.requests[2]!;
    expect(
      parseSignatureHeader(String(after.headers['x-service-signature']))!.signatures,
    ).toHaveLength(1);
    expect(check(after, oldSecret)).toBe(false);
    expect(check(after, newSecret)).toBe(true);
  });
});

describe('isolation, fairness and wake-ups', () => {
  it('one hanging endpoint does not hold back another', async () => {
    const { t, store } = setup();
    const slow = await receiver(() => 'hang');
    const fast = await receiver(() => 200);
    await endpoint(store, slow.url);
    await endpoint(store, fast.url);
    const ids = Array.from({ length: 40 }, () => t.event());
    dispatcher({ store, timeoutMs: 2_000, concurrency: 8, perEndpointConcurrency: 4 }).start();
    await fast.waitFor(40, 1_500); // all of them before the slow one's first timeout
    expect(new Set(fast.requests.map((q) => JSON.parse(q.body.toString()).id))).toEqual(
      new Set(ids),
    );
    // The slow one holds only its own share of the connections.
    expect(slow.requests.length).toBeLessThanOrEqual(4);
  });

  it('an event written on the store connection wakes the dispatcher without a poll', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    await endpoint(store, r.url);
    const d = dispatcher({ store, pollIntervalMs: 60_000 });
    cleanups.push(watchOutbox(t.db, () => d.notify()));
    d.start();
    await sleep(50); // the first pump has run and armed its 60 s timer
    const id = t.event();
    await r.waitFor(1, 5_000);
    expect(JSON.parse(r.requests[0]!.body.toString()).id).toBe(id);
  });

  it('a session created on the store’s writer thread wakes the dispatcher without a poll', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    await endpoint(store, r.url);
    t.db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_a', 'a', 1)").run();
    const d = dispatcher({ store, pollIntervalMs: 60_000 });
    cleanups.push(watchOutbox(t.db, () => d.notify()));
    d.start();
    await sleep(50); // the first pump has run and armed its 60 s timer
    const s = sessionRecord({ id: 'sess_thread', accountId: 'acct_a', mode: 'test' });
    await t.store.createSession(s, secretRecord(s.id));
    await r.waitFor(1, 5_000);
    expect(JSON.parse(r.requests[0]!.body.toString())).toMatchObject({ sessionId: 'sess_thread' });
  });

  it('an event written by another process (another connection) is found by the poll', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    await endpoint(store, r.url);
    dispatcher({ store, pollIntervalMs: 50 }).start();
    const other = new BetterSqlite3(t.path);
    cleanups.push(() => other.close());
    other
      .prepare(
        `INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
         VALUES ('evt_cli', 'acct_a', 'test', 'session.status', 'sess_x', 1, '{}')`,
      )
      .run();
    await r.waitFor(1, 5_000);
    // The stored payload is not a body for this row, so the body is rebuilt from the columns.
    expect(JSON.parse(r.requests[0]!.body.toString())).toEqual({
      id: 'evt_cli',
      type: 'session.status',
      createdAt: 1,
      sessionId: 'sess_x',
    });
  });
});

describe('address policy at delivery time', () => {
  it('refuses a link-local address without connecting, and does not retry', async () => {
    const { t, store } = setup();
    // Registered straight in the store: registerEndpoint would already refuse it.
    store.addEndpoint({
      accountId: 'acct_a',
      mode: 'test',
      url: 'http://169.254.169.254/latest/meta-data',
      eventTypes: null,
      secret: 'whsec_x',
      now: Date.now(),
    });
    const id = t.event();
    dispatcher({ store, retryDelaysMs: [10, 10] }).start();
    const d = await settled(store, id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1 });
    expect(d.lastError).toContain('link-local');
  });

  it('refuses every IPv6 spelling of a non-public IPv4 address, without connecting', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    const refused = EMBEDDED_SPELLINGS.filter((s) => s.kind !== 'public');
    const kindOf = new Map<string, string>();
    for (const s of refused) {
      // Stored as an old row would be: registration refuses them now.
      const ep = store.addEndpoint({
        accountId: 'acct_a',
        mode: 'test',
        url: `http://[${s.ip}]:${r.port}/hook`,
        eventTypes: null,
        secret: 'whsec_x',
        now: Date.now(),
      });
      kindOf.set(ep.id, s.kind);
    }
    const id = t.event();
    await dispatcher({
      store,
      addressPolicy: 'none',
      retryDelaysMs: [],
      timeoutMs: 1_000,
    }).runUntilIdle();
    const deliveries = store.getEvent(id)!.deliveries;
    expect(deliveries).toHaveLength(refused.length);
    for (const d of deliveries) {
      expect(d, d.url).toMatchObject({ status: 'failed', attempts: 1 });
      expect(d.lastError, d.url).toContain(`blocked: address `);
      expect(d.lastError, d.url).toContain(`is ${kindOf.get(d.endpointId)}`);
    }
    expect(r.requests).toHaveLength(0);
  });

  it('checks the address a name resolves to: localhost is refused under "none"', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    await endpoint(store, `http://localhost:${r.port}/hook`);
    const id = t.event();
    dispatcher({ store, addressPolicy: 'none', retryDelaysMs: [10] }).start();
    const d = await settled(store, id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1 });
    expect(d.lastError).toContain('loopback');
    expect(r.requests).toHaveLength(0);
  });

  it('delivers to localhost under the default policy', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    await endpoint(store, `http://localhost:${r.port}/hook`);
    const id = t.event();
    dispatcher({ store }).start();
    expect(await settled(store, id)).toMatchObject({ status: 'delivered' });
  });
});

describe('errors while making an attempt', () => {
  const WEEK = 7 * 24 * 60 * 60_000;

  it('a stored URL whose password does not decode is blocked at its first attempt, not retried', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    // Stored as an old row would be: registration refuses it now.
    store.addEndpoint({
      accountId: 'acct_a',
      mode: 'test',
      url: `http://user:%zz@127.0.0.1:${r.port}/hook`,
      eventTypes: null,
      secret: 'whsec_x',
      now: Date.now(),
    });
    const clock = manualClock(1_700_000_000_000);
    const errors: unknown[] = [];
    const d = dispatcher({ store, clock, onError: (e) => errors.push(e) });
    const id = t.event();
    await d.runUntilIdle();
    clock.advance(WEEK); // long after every retry and every lease
    await d.runUntilIdle();
    const delivery = store.getEvent(id)!.deliveries[0]!;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    expect(delivery.lastError).toBe(
      "blocked: the URL's password is not valid percent-encoding (a % must start %XX of UTF-8)",
    );
    expect(store.listAttempts(id).map((a) => a.verdict)).toEqual(['failed']);
    expect(store.nextDueAt()).toBeNull();
    expect(r.requests).toHaveLength(0);
    expect(errors).toEqual([]);
  });

  it('an attempt that throws is a failed attempt: retried by the schedule, then failed', async () => {
    const { t, store } = setup();
    const r = await receiver(() => 200);
    const { endpoint: ep } = await endpoint(store, r.url);
    // A corrupt row (a hand edit, a bad restore): signing with a null secret throws a TypeError.
    t.db
      .prepare('UPDATE webhook_endpoints SET secrets = ? WHERE id = ?')
      .run(JSON.stringify([{ secret: null, createdAt: 0, expiresAt: null }]), ep.id);
    const clock = manualClock(1_700_000_000_000);
    const errors: unknown[] = [];
    const d = dispatcher({ store, clock, onError: (e) => errors.push(e) });
    const id = t.event();
    await d.runUntilIdle();
    for (const delay of DEFAULT_RETRY_DELAYS_MS) {
      clock.advance(delay);
      await d.runUntilIdle();
    }
    clock.advance(WEEK);
    await d.runUntilIdle();
    const attempts = store.listAttempts(id);
    expect(attempts.map((a) => a.verdict)).toEqual([...Array(5).fill('retry'), 'failed']);
    for (const a of attempts) expect(a.error).toMatch(/^error: TypeError: /);
    expect(store.getEvent(id)!.deliveries[0]).toMatchObject({ status: 'failed', attempts: 6 });
    expect(store.nextDueAt()).toBeNull();
    expect(r.requests).toHaveLength(0);
    expect(errors).toEqual([]);
  });
});

describe('redelivery', () => {
  it('sends a failed event again with a fresh schedule', async () => {
    const { t, store } = setup();
    let answer = 404;
    const r = await receiver(() => answer);
    await endpoint(store, r.url);
    const id = t.event();
    const d = dispatcher({ store });
    await d.runUntilIdle();
    expect(store.getEvent(id)!.deliveries[0]).toMatchObject({ status: 'failed', attempts: 1 });
    answer = 200;
    expect(store.redeliver(id, Date.now())).toBe(1);
    await d.runUntilIdle();
    expect(store.getEvent(id)!.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(r.requests).toHaveLength(2);
    expect(store.redeliver('evt_unknown', Date.now())).toBeNull();
  });
});
