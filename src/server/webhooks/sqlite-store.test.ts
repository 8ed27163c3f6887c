import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { appendPlatformEvent, withPlatformEvent } from './platform-settings';
import { createSqliteWebhookStore } from './sqlite-store';
import type { WebhookStore } from './store';
import { openTempStore, type TempStore } from './test-support';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.close();
  temp = undefined;
});

function setup(): { t: TempStore; store: WebhookStore } {
  temp = openTempStore();
  return { t: temp, store: createSqliteWebhookStore(temp.db) };
}

const add = (
  store: WebhookStore,
  accountId: string,
  mode: 'test' | 'live',
  eventTypes: string[] | null = null,
) =>
  store.addEndpoint({
    accountId,
    mode,
    url: `http://127.0.0.1/${accountId}/${mode}`,
    eventTypes,
    secret: 'whsec_x',
    now: 1,
  }).id;

/** endpoint id → ids of the events it has a delivery for */
function deliveriesByEndpoint(store: WebhookStore) {
  const out = new Map<string, string[]>();
  for (const e of store.listEvents({ failedOnly: false, limit: 1000 }).reverse()) {
    for (const d of e.deliveries) out.set(d.endpointId, [...(out.get(d.endpointId) ?? []), e.id]);
  }
  return out;
}

describe('fan-out', () => {
  it('with nobody listening, needs no write lock, so another writer never holds it up', () => {
    const { t, store } = setup();
    t.event({ accountId: 'acct_a', mode: 'test' });
    const other = new Database(t.path);
    try {
      // Another connection (the create writer's thread) in the middle of a write.
      other.exec('BEGIN IMMEDIATE');
      t.db.pragma('busy_timeout = 0');
      expect(store.fanOut(10, 100)).toBe(0);
      other.exec('COMMIT');
    } finally {
      other.close();
    }
    // An endpoint added now starts after the events it never subscribed to.
    const later = add(store, 'acct_a', 'test');
    const e = t.event({ accountId: 'acct_a', mode: 'test' });
    expect(store.fanOut(10, 100)).toBe(1);
    expect(deliveriesByEndpoint(store).get(later)).toEqual([e]);
  });

  it('keeps accounts and modes apart, and sends platform events to everyone', () => {
    const { t, store } = setup();
    const aTest = add(store, 'acct_a', 'test');
    const aLive = add(store, 'acct_a', 'live');
    const bTest = add(store, 'acct_b', 'test');
    const e1 = t.event({ accountId: 'acct_a', mode: 'test' });
    const e2 = t.event({ accountId: 'acct_a', mode: 'live' });
    const e3 = t.event({ accountId: 'acct_b', mode: 'test' });
    const e4 = t.event({ accountId: 'acct_c', mode: 'test' });
    const p = appendPlatformEvent(t.db, 'settings.avatars', 5);
    expect(store.fanOut(10, 100)).toBe(5);
    const got = deliveriesByEndpoint(store);
    expect(got.get(aTest)).toEqual([e1, p]);
    expect(got.get(aLive)).toEqual([e2, p]);
    expect(got.get(bTest)).toEqual([e3, p]);
    expect([...got.values()].flat()).not.toContain(e4);
  });

  it('a settings event written for one account stays in that account', () => {
    const { t, store } = setup();
    const a = add(store, 'acct_a', 'test');
    const b = add(store, 'acct_b', 'test');
    const e = t.event({ accountId: 'acct_a', type: 'settings.langs' });
    store.fanOut(10, 100);
    const got = deliveriesByEndpoint(store);
    expect(got.get(a)).toEqual([e]);
    expect(got.get(b)).toBeUndefined();
  });

  it("follows each endpoint's event types, with group wildcards", () => {
    const { t, store } = setup();
    const media = add(store, 'acct_a', 'test', ['media.*']);
    const status = add(store, 'acct_a', 'test', ['session.status', 'settings.langs']);
    const s = t.event({ type: 'session.status' });
    const m = t.event({ type: 'media.user_photo' });
    const l = appendPlatformEvent(t.db, 'settings.langs', 1);
    const av = appendPlatformEvent(t.db, 'settings.avatars', 1);
    store.fanOut(10, 100);
    const got = deliveriesByEndpoint(store);
    expect(got.get(media)).toEqual([m]);
    expect(got.get(status)).toEqual([s, l]);
    expect([...got.values()].flat()).not.toContain(av);
  });

  it('sends an endpoint only the events written after it was registered, each once', () => {
    const { t, store } = setup();
    const before = t.event();
    const ep = add(store, 'acct_a', 'test');
    const after = t.event();
    expect(store.fanOut(10, 1)).toBe(1); // one per call: the cursor moves on
    expect(store.fanOut(10, 1)).toBe(0);
    t.event();
    store.fanOut(10, 100);
    store.fanOut(10, 100);
    const ids = deliveriesByEndpoint(store).get(ep)!;
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(after);
    expect(ids).not.toContain(before);
  });
});

describe('claims', () => {
  it('respects the per-endpoint limit and leases what it claims', () => {
    const { t, store } = setup();
    const a = add(store, 'acct_a', 'test');
    const b = add(store, 'acct_b', 'test');
    for (let i = 0; i < 10; i++) t.event({ accountId: 'acct_a' });
    for (let i = 0; i < 3; i++) t.event({ accountId: 'acct_b' });
    store.fanOut(100, 100);
    const busy = new Map([[a, 1]]);
    const first = store.claimDue({ now: 100, limit: 50, leaseMs: 1000, perEndpointLimit: 4, busy });
    const count = (id: string) => first.filter((c) => c.endpointId === id).length;
    expect(count(a)).toBe(3); // 4 minus the one already in flight
    expect(count(b)).toBe(3);
    expect(first.every((c) => c.attempt === 1)).toBe(true);
    // Leased: not claimable again until the lease ends.
    const none = store.claimDue({
      now: 100,
      limit: 50,
      leaseMs: 1000,
      perEndpointLimit: 100,
      busy: new Map(),
    });
    expect(none.filter((c) => first.some((f) => f.deliveryId === c.deliveryId))).toEqual([]);
    expect(none).toHaveLength(7); // the rest of a's backlog
    expect(store.nextDueAt()).toBe(1100); // everything is leased until now + leaseMs
    const again = store.claimDue({
      now: 1100,
      limit: 50,
      leaseMs: 1000,
      perEndpointLimit: 100,
      busy: new Map(),
    });
    const reclaimed = again.filter((c) => first.some((f) => f.deliveryId === c.deliveryId));
    expect(reclaimed).toHaveLength(6);
    expect(reclaimed.every((c) => c.attempt === 2)).toBe(true);
  });

  it('ignores the result of an attempt whose lease was taken over', () => {
    const { t, store } = setup();
    add(store, 'acct_a', 'test');
    const id = t.event();
    store.fanOut(0, 10);
    const [first] = store.claimDue({
      now: 0,
      limit: 1,
      leaseMs: 10,
      perEndpointLimit: 1,
      busy: new Map(),
    });
    const [second] = store.claimDue({
      now: 10,
      limit: 1,
      leaseMs: 10,
      perEndpointLimit: 1,
      busy: new Map(),
    });
    expect(second!.attempt).toBe(2);
    store.recordAttempts([
      {
        deliveryId: first!.deliveryId,
        attempt: 1,
        startedAt: 0,
        finishedAt: 20,
        result: { kind: 'response', status: 404 },
        verdict: 'failed',
        nextAttemptAt: null,
      },
    ]);
    expect(store.getEvent(id)!.deliveries[0]!.status).toBe('pending');
    store.recordAttempts([
      {
        deliveryId: second!.deliveryId,
        attempt: 2,
        startedAt: 10,
        finishedAt: 21,
        result: { kind: 'response', status: 200 },
        verdict: 'delivered',
        nextAttemptAt: null,
      },
    ]);
    expect(store.getEvent(id)!.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(store.listAttempts(id).map((a) => a.statusCode)).toEqual([404, 200]);
  });
});

describe('an event pruned from the outbox', () => {
  it('ends its deliveries as failed instead of claiming them forever', () => {
    const { t, store } = setup();
    add(store, 'acct_a', 'test');
    const id = t.event();
    store.fanOut(0, 10);
    const deliveryId = store.getEvent(id)!.deliveries[0]!.id;
    t.db.prepare('DELETE FROM events WHERE id = ?').run(id);
    expect(
      store.claimDue({ now: 0, limit: 10, leaseMs: 10, perEndpointLimit: 10, busy: new Map() }),
    ).toEqual([]);
    const row = t.db
      .prepare('SELECT status, last_error FROM webhook_deliveries WHERE id = ?')
      .get(deliveryId);
    expect(row).toEqual({ status: 'failed', last_error: 'the event is no longer stored' });
    expect(store.nextDueAt()).toBeNull();
  });
});

describe('a delivery whose attempts never get a result', () => {
  it('is failed once it has had the most attempts, instead of being claimed for ever', () => {
    const { t, store } = setup();
    add(store, 'acct_a', 'test');
    const id = t.event();
    store.fanOut(0, 10);
    // Each claim's lease runs out with no result, as when the process dies during every attempt.
    const claim = (now: number) =>
      store
        .claimDue({
          now,
          limit: 10,
          leaseMs: 10,
          perEndpointLimit: 10,
          busy: new Map(),
          maxAttempts: 3,
        })
        .map((c) => c.attempt);
    expect(claim(0)).toEqual([1]);
    expect(claim(10)).toEqual([2]);
    expect(claim(20)).toEqual([3]);
    expect(claim(30)).toEqual([]);
    expect(store.getEvent(id)!.deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      nextAttemptAt: null,
      lastError: 'no attempts left: 3 made, 3 allowed',
    });
    expect(store.nextDueAt()).toBeNull();
  });
});

describe('endpoints and events', () => {
  it('removing an endpoint removes its deliveries', () => {
    const { t, store } = setup();
    const a = add(store, 'acct_a', 'test');
    const id = t.event();
    store.fanOut(0, 10);
    expect(store.getEvent(id)!.deliveries).toHaveLength(1);
    expect(store.removeEndpoint(a)).toBe(true);
    expect(store.removeEndpoint(a)).toBe(false);
    expect(store.getEvent(id)!.deliveries).toHaveLength(0);
    expect(store.getEndpoint(a)).toBeNull();
  });

  it('lists failed events only with --failed, and redelivers to an endpoint added later', () => {
    const { t, store } = setup();
    add(store, 'acct_a', 'test');
    const ok = t.event();
    const bad = t.event();
    store.fanOut(0, 10);
    const claimed = store.claimDue({
      now: 0,
      limit: 10,
      leaseMs: 10,
      perEndpointLimit: 10,
      busy: new Map(),
    });
    store.recordAttempts(
      claimed.map((c) => ({
        deliveryId: c.deliveryId,
        attempt: c.attempt,
        startedAt: 0,
        finishedAt: 1,
        result: { kind: 'response' as const, status: c.event.id === ok ? 200 : 410 },
        verdict: c.event.id === ok ? ('delivered' as const) : ('failed' as const),
        nextAttemptAt: null,
      })),
    );
    expect(store.listEvents({ failedOnly: true, limit: 10 }).map((e) => e.id)).toEqual([bad]);
    expect(store.listEvents({ failedOnly: false, limit: 10 }).map((e) => e.id)).toEqual([bad, ok]);
    const late = add(store, 'acct_a', 'test');
    expect(store.redeliver(bad, 5, late)).toBe(1);
    expect(store.getEvent(bad)!.deliveries.map((d) => [d.endpointId === late, d.status])).toEqual([
      [false, 'failed'],
      [true, 'pending'],
    ]);
    expect(store.redeliver(bad, 5)).toBe(2);
  });

  it('writes a platform change and its event together, or neither', async () => {
    const { t } = setup();
    t.db.exec('CREATE TABLE things (name TEXT)');
    const count = () => (t.db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    await expect(
      withPlatformEvent(t.db, 'settings.avatars', 1, async () => {
        t.db.prepare("INSERT INTO things VALUES ('x')").run();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(count()).toBe(0);
    expect(t.db.prepare('SELECT count(*) AS n FROM things').get()).toEqual({ n: 0 });
    const r = await withPlatformEvent(t.db, 'settings.avatars', 1, async () => {
      t.db.prepare("INSERT INTO things VALUES ('y')").run();
      return true;
    });
    expect(r.eventId).toMatch(/^evt_/);
    expect(count()).toBe(1);
    expect((await withPlatformEvent(t.db, 'settings.avatars', 1, async () => false)).eventId).toBe(
      null,
    );
    expect(count()).toBe(1);
  });
});
