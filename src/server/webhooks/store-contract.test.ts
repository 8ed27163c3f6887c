/**
 * One suite, both webhook stores: SQLite's (synchronous, beside the store's file) and
 * PostgreSQL's (shared by instances). "Another connection" stands for another process or instance.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids';
import { connectPg, type Pg } from '../store/pg/client';
import { PG_CORE_MIGRATIONS, runPgMigrations } from '../store/pg/migrations';
import type { Mode } from '../store/types';
import { promised } from '../store/promised';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { appendPlatformEvent } from './platform-settings';
import { PG_WEBHOOK_MIGRATIONS, pgWebhookStore, type PgWebhookStore } from './pg-store';
import { createSqliteWebhookStore } from './sqlite-store';
import { openTempStore, type TempStore } from './test-support';

type EventInput = { accountId?: string; mode?: Mode; type?: string };

interface Subject {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  fresh(): Promise<void>;
  /** A webhook store on a connection of its own. */
  open(): Promise<PgWebhookStore>;
  event(input?: EventInput): Promise<string>;
  platformEvent(type: string): Promise<string>;
  /** Removes an event from the outbox (pruned). */
  prune(id: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteSubject(): Subject {
  let t: TempStore | null = null;
  const others: Database.Database[] = [];
  const temp = () => {
    if (!t) throw new Error('no store');
    return t;
  };
  return {
    name: 'SQLite',
    async setup() {},
    async teardown() {},
    async fresh() {
      t = openTempStore();
    },
    async open() {
      if (others.length === 0 && t) {
        others.push(t.db);
        return promised(createSqliteWebhookStore(t.db));
      }
      const db = new Database(temp().path);
      db.pragma('busy_timeout = 5000');
      others.push(db);
      return promised(createSqliteWebhookStore(db));
    },
    async event(input = {}) {
      return temp().event(input);
    },
    async platformEvent(type) {
      return appendPlatformEvent(temp().db, type, 5);
    },
    async prune(id) {
      temp().db.prepare('DELETE FROM events WHERE id = ?').run(id);
    },
    async close() {
      for (const db of others.splice(0)) if (db !== t?.db) db.close();
      await t?.close();
      t = null;
    },
  };
}

function pgSubject(): Subject {
  let cluster: PgCluster | null = null;
  let url = '';
  const pools: Pg[] = [];
  const first = () => {
    const pg = pools[0];
    if (!pg) throw new Error('no pool');
    return pg;
  };
  const insert = async (e: { accountId: string; mode: string; type: string }) => {
    const id = newId('evt', 16);
    const sessionId = e.type.startsWith('settings.') && !e.accountId ? '' : newId('sess');
    const createdAt = Date.now();
    await first()`INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
      VALUES (${id}, ${e.accountId}, ${e.mode}, ${e.type}, ${sessionId}, ${createdAt},
      ${JSON.stringify({ id, type: e.type, createdAt, sessionId })})`;
    return id;
  };
  return {
    name: 'PostgreSQL',
    async setup() {
      cluster = await startPgCluster();
    },
    async teardown() {
      await cluster?.stop();
    },
    async fresh() {
      if (!cluster) throw new Error('no cluster');
      url = await cluster.newDatabase();
    },
    async open() {
      const pg = connectPg(url, { max: 4 });
      pools.push(pg);
      await runPgMigrations(pg, [...PG_CORE_MIGRATIONS, ...PG_WEBHOOK_MIGRATIONS]);
      return pgWebhookStore(pg);
    },
    event: (input = {}) =>
      insert({
        accountId: input.accountId ?? 'acct_a',
        mode: input.mode ?? 'test',
        type: input.type ?? 'session.status',
      }),
    platformEvent: (type) => insert({ accountId: '', mode: '', type }),
    async prune(id) {
      await first()`DELETE FROM events WHERE id = ${id}`;
    },
    async close() {
      for (const pg of pools.splice(0)) await pg.end({ timeout: 1 });
    },
  };
}

describe.each([sqliteSubject(), pgSubject()])('the $name webhook store', (subject) => {
  let store: PgWebhookStore;
  beforeAll(() => subject.setup(), 60_000);
  afterAll(() => subject.teardown());
  beforeEach(async () => {
    await subject.fresh();
    store = await subject.open();
  });
  afterEach(() => subject.close());

  const add = async (accountId: string, mode: Mode, eventTypes: string[] | null = null) =>
    (
      await store.addEndpoint({
        accountId,
        mode,
        url: `http://127.0.0.1/${accountId}/${mode}`,
        eventTypes,
        secret: 'whsec_x',
        now: 1,
      })
    ).id;
  /** Fans out until nothing is left. */
  const fanOutAll = async (now = 10) => {
    while ((await store.fanOut(now, 100)) > 0);
  };
  /** endpoint id → ids of the events it has a delivery for, oldest first */
  const deliveriesByEndpoint = async () => {
    const out = new Map<string, string[]>();
    for (const e of (await store.listEvents({ failedOnly: false, limit: 1000 })).reverse()) {
      for (const d of e.deliveries) {
        out.set(d.endpointId, [...(out.get(d.endpointId) ?? []), e.id]);
      }
    }
    return out;
  };
  const claim = (now: number, more: { limit?: number; perEndpointLimit?: number } = {}) =>
    store.claimDue({
      now,
      limit: more.limit ?? 50,
      leaseMs: 1000,
      perEndpointLimit: more.perEndpointLimit ?? 100,
      busy: new Map(),
    });

  it('keeps accounts and modes apart, and sends platform events to everyone', async () => {
    const aTest = await add('acct_a', 'test');
    const aLive = await add('acct_a', 'live');
    const bTest = await add('acct_b', 'test');
    const e1 = await subject.event({ accountId: 'acct_a', mode: 'test' });
    const e2 = await subject.event({ accountId: 'acct_a', mode: 'live' });
    const e3 = await subject.event({ accountId: 'acct_b', mode: 'test' });
    const e4 = await subject.event({ accountId: 'acct_c', mode: 'test' });
    const p = await subject.platformEvent('settings.avatars');
    await fanOutAll();
    const got = await deliveriesByEndpoint();
    expect(got.get(aTest)).toEqual([e1, p]);
    expect(got.get(aLive)).toEqual([e2, p]);
    expect(got.get(bTest)).toEqual([e3, p]);
    expect([...got.values()].flat()).not.toContain(e4);
  });

  it("follows each endpoint's event types, with group wildcards", async () => {
    const media = await add('acct_a', 'test', ['media.*']);
    const status = await add('acct_a', 'test', ['session.status', 'settings.langs']);
    const s = await subject.event({ type: 'session.status' });
    const m = await subject.event({ type: 'media.user_photo' });
    const l = await subject.platformEvent('settings.langs');
    const av = await subject.platformEvent('settings.avatars');
    await fanOutAll();
    const got = await deliveriesByEndpoint();
    expect(got.get(media)).toEqual([m]);
    expect(got.get(status)).toEqual([s, l]);
    expect([...got.values()].flat()).not.toContain(av);
  });

  it('sends an endpoint only the events written after it was registered, each once', async () => {
    const before = await subject.event();
    const ep = await add('acct_a', 'test');
    const after = await subject.event();
    await fanOutAll();
    expect(await store.fanOut(10, 100)).toBe(0);
    await subject.event();
    await fanOutAll();
    await fanOutAll();
    const ids = (await deliveriesByEndpoint()).get(ep)!;
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(after);
    expect(ids).not.toContain(before);
  });

  it('respects the per-endpoint limit and leases what it claims', async () => {
    const a = await add('acct_a', 'test');
    const b = await add('acct_b', 'test');
    for (let i = 0; i < 10; i++) await subject.event({ accountId: 'acct_a' });
    for (let i = 0; i < 3; i++) await subject.event({ accountId: 'acct_b' });
    await fanOutAll(100);
    const busy = new Map([[a, 1]]);
    const first = await store.claimDue({
      now: 100,
      limit: 50,
      leaseMs: 1000,
      perEndpointLimit: 4,
      busy,
    });
    const count = (id: string) => first.filter((c) => c.endpointId === id).length;
    expect(count(a)).toBe(3);
    expect(count(b)).toBe(3);
    expect(first.every((c) => c.attempt === 1)).toBe(true);
    const none = await claim(100);
    expect(none.filter((c) => first.some((f) => f.deliveryId === c.deliveryId))).toEqual([]);
    expect(none).toHaveLength(7);
    expect(await store.nextDueAt()).toBe(1100);
    const again = await claim(1100);
    const reclaimed = again.filter((c) => first.some((f) => f.deliveryId === c.deliveryId));
    expect(reclaimed).toHaveLength(6);
    expect(reclaimed.every((c) => c.attempt === 2)).toBe(true);
  });

  it('gives each due delivery to one of two connections claiming at once', async () => {
    const other = await subject.open();
    await add('acct_a', 'test');
    for (let i = 0; i < 30; i++) await subject.event();
    await Promise.all([fanOutAll(), other.fanOut(10, 7), other.fanOut(10, 7)]);
    await fanOutAll();
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? other : store).claimDue({
          now: 10,
          limit: 5,
          leaseMs: 1000,
          perEndpointLimit: 100,
          busy: new Map(),
        }),
      ),
    );
    const ids = claims.flat().map((c) => c.deliveryId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const events = await store.listEvents({ failedOnly: false, limit: 100 });
    expect(events.every((e) => e.deliveries.length === 1)).toBe(true);
  });

  it('ignores the result of an attempt whose lease was taken over', async () => {
    await add('acct_a', 'test');
    const id = await subject.event();
    await fanOutAll(0);
    const [first] = await store.claimDue({
      now: 0,
      limit: 1,
      leaseMs: 10,
      perEndpointLimit: 1,
      busy: new Map(),
    });
    const [second] = await store.claimDue({
      now: 10,
      limit: 1,
      leaseMs: 10,
      perEndpointLimit: 1,
      busy: new Map(),
    });
    expect(second!.attempt).toBe(2);
    const attempt = (deliveryId: string, n: number, status: number, at: number) => ({
      deliveryId,
      attempt: n,
      startedAt: at,
      finishedAt: at + 10,
      result: { kind: 'response' as const, status },
      verdict: status === 200 ? ('delivered' as const) : ('failed' as const),
      nextAttemptAt: null,
    });
    await store.recordAttempts([attempt(first!.deliveryId, 1, 404, 0)]);
    expect((await store.getEvent(id))!.deliveries[0]!.status).toBe('pending');
    await store.recordAttempts([attempt(second!.deliveryId, 2, 200, 11)]);
    expect((await store.getEvent(id))!.deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
    expect((await store.listAttempts(id)).map((a) => a.statusCode)).toEqual([404, 200]);
  });

  it('fails a delivery whose event was pruned, or whose attempts all went unrecorded', async () => {
    await add('acct_a', 'test');
    const pruned = await subject.event();
    const stuck = await subject.event();
    await fanOutAll(0);
    await subject.prune(pruned);
    const claimOnce = async (now: number) =>
      (
        await store.claimDue({
          now,
          limit: 10,
          leaseMs: 10,
          perEndpointLimit: 10,
          busy: new Map(),
          maxAttempts: 2,
        })
      ).map((c) => [c.event.id, c.attempt]);
    expect(await claimOnce(0)).toEqual([[stuck, 1]]);
    expect(await claimOnce(10)).toEqual([[stuck, 2]]);
    expect(await claimOnce(20)).toEqual([]);
    expect((await store.getEvent(stuck))!.deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      nextAttemptAt: null,
      lastError: 'no attempts left: 2 made, 2 allowed',
    });
    expect(await store.nextDueAt()).toBeNull();
  });

  it('removes an endpoint with its deliveries, lists failed events, and redelivers', async () => {
    const a = await add('acct_a', 'test');
    const ok = await subject.event();
    const bad = await subject.event();
    await fanOutAll(0);
    const claimed = await store.claimDue({
      now: 0,
      limit: 10,
      leaseMs: 10,
      perEndpointLimit: 10,
      busy: new Map(),
    });
    await store.recordAttempts(
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
    expect((await store.listEvents({ failedOnly: true, limit: 10 })).map((e) => e.id)).toEqual([
      bad,
    ]);
    const late = await add('acct_a', 'test');
    expect(await store.redeliver(bad, 5, late)).toBe(1);
    expect(
      (await store.getEvent(bad))!.deliveries.map((d) => [d.endpointId === late, d.status]),
    ).toEqual([
      [false, 'failed'],
      [true, 'pending'],
    ]);
    expect(await store.redeliver(bad, 5)).toBe(2);
    expect(await store.redeliver('evt_none', 5)).toBeNull();
    expect(await store.setSecrets(a, [])).toMatchObject({ id: a, secrets: [] });
    expect(await store.setSecrets('we_none', [])).toBeNull();
    expect((await store.listEndpoints({ accountId: 'acct_a', mode: 'test' })).length).toBe(2);
    expect(await store.listEndpoints({ mode: 'live' })).toEqual([]);
    expect(await store.removeEndpoint(a)).toBe(true);
    expect(await store.removeEndpoint(a)).toBe(false);
    expect((await store.getEvent(ok))!.deliveries).toHaveLength(0);
    expect(await store.getEndpoint(a)).toBeNull();
  });
});
