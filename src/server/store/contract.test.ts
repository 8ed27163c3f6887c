/**
 * One suite, both stores: what every `SessionStore` must do, run against SQLite (a file) and
 * PostgreSQL (a throwaway cluster from the machine's binaries). "Two connections" stand for two
 * server processes on one file, or two instances on one database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientSecret } from '../ids';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { openPgStore, type PgSessionStore } from './pg/store';
import { secretRecord, sessionRecord } from './records';
import { openSqliteStore, type SqliteSessionStore } from './sqlite';
import type { IdempotencyRecord, OtpSendClaim, SessionRecord, SessionStore } from './types';

/** One kind of store under test: a fresh database per test. */
interface Subject {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A fresh, empty database. */
  fresh(): Promise<void>;
  /** A connection to the current database (open it as often as needed). */
  open(): Promise<SessionStore>;
  /** From now on every event insert fails: a status change must fail with it. */
  breakEvents(store: SessionStore): Promise<void>;
  drop(): Promise<void>;
}

function sqliteSubject(): Subject {
  let dir = '';
  return {
    name: 'SQLite',
    async setup() {},
    async teardown() {},
    async fresh() {
      dir = mkdtempSync(join(tmpdir(), 'idv-contract-'));
    },
    async open() {
      return openSqliteStore({ path: join(dir, 'db.sqlite'), backgroundCheckpoints: false });
    },
    async breakEvents(store) {
      (store as SqliteSessionStore).db.exec(
        "CREATE TRIGGER no_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'boom'); END",
      );
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function pgSubject(): Subject {
  let cluster: PgCluster | null = null;
  let url = '';
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
      return openPgStore({ url, max: 4 });
    },
    async breakEvents(store) {
      await (store as PgSessionStore).pg.unsafe(`
        CREATE FUNCTION no_events() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$
          LANGUAGE plpgsql;
        CREATE TRIGGER no_events BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION no_events();
      `);
    },
    async drop() {},
  };
}

describe.each([sqliteSubject(), pgSubject()])('the $name store', (subject) => {
  let store: SessionStore;
  const others: SessionStore[] = [];
  /** Another connection to the same database. */
  const second = async () => {
    const s = await subject.open();
    others.push(s);
    return s;
  };

  beforeAll(() => subject.setup(), 60_000);
  afterAll(() => subject.teardown());
  beforeEach(async () => {
    await subject.fresh();
    store = await subject.open();
  });
  afterEach(async () => {
    await store.close();
    for (const s of others.splice(0)) await s.close();
    await subject.drop();
  });

  async function session(accountId: string, i = 0): Promise<SessionRecord> {
    const id = `sess_${String(i).padStart(4, '0')}`;
    const s = sessionRecord({ id, accountId, mode: 'test', createdAt: 1000 + i, flowId: 'f' });
    await store.createSession(s, secretRecord(id, `cs_${i}`, s.createdAt));
    return s;
  }

  it('keeps what it was given across a reopening, its migrations applied once', async () => {
    const acct = await store.ensureAccount('a', 1);
    const s = await session(acct.id);
    await store.close();
    store = await subject.open();
    expect(await store.findAccount('a')).toEqual(acct);
    expect(await store.getSessionById(s.id)).toEqual(s);
    expect(await store.countAccounts()).toBe(1);
  });

  it('writes a session.status event with each status change, in the same transaction', async () => {
    const acct = await store.ensureAccount('a', 1);
    const s = await session(acct.id);
    expect(await store.listEvents({ sessionId: s.id })).toHaveLength(1);
    const touched = await store.updateSession(s, { ...s, lastActivityAt: 2000 }, 2000);
    expect(touched?.rev).toBe(1);
    expect(await store.listEvents({ sessionId: s.id })).toHaveLength(1);
    const started = await store.updateSession(
      touched!,
      { ...touched!, status: 'inProgress', startedAt: 3000 },
      3000,
    );
    expect(started?.status).toBe('inProgress');
    const events = await store.listEvents({ sessionId: s.id });
    expect(events.map((e) => [e.type, e.createdAt, e.mode, e.accountId])).toEqual([
      ['session.status', 1000, 'test', acct.id],
      ['session.status', 3000, 'test', acct.id],
    ]);
    const payload = JSON.parse(events[1]!.payload) as Record<string, unknown>;
    expect(Object.keys(payload)).toEqual(['id', 'type', 'createdAt', 'sessionId']);
    expect(payload).toMatchObject({ id: events[1]!.id, createdAt: 3000, sessionId: s.id });
    expect(events[1]!.seq).toBeGreaterThan(events[0]!.seq);
    // A failing event insert takes the status change down with it.
    await subject.breakEvents(store);
    await expect(
      store.updateSession(started!, { ...started!, status: 'complete', finishedAt: 4000 }, 4000),
    ).rejects.toThrow(/boom/);
    expect((await store.getSessionById(s.id))?.status).toBe('inProgress');
    await expect(session(acct.id, 1)).rejects.toThrow(/boom/);
    expect(await store.getSessionById('sess_0001')).toBeNull();
    expect(await store.getLatestClientSecret('sess_0001')).toBeNull();
  });

  it('fails a create that clashes, alone, leaving nothing of it behind', async () => {
    const acct = await store.ensureAccount('a', 1);
    const settled = await Promise.allSettled([
      session(acct.id, 1),
      session(acct.id, 1),
      session(acct.id, 2),
    ]);
    expect(settled.map((r) => r.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((await store.getSessionById('sess_0001'))?.id).toBe('sess_0001');
    expect((await store.getSessionById('sess_0002'))?.id).toBe('sess_0002');
    expect(await store.listEvents({ sessionId: 'sess_0001' })).toHaveLength(1);
    expect(await store.listEvents({ sessionId: 'sess_0002' })).toHaveLength(1);
  });

  it('refuses a stale write, from this connection or another (optimistic concurrency)', async () => {
    const acct = await store.ensureAccount('a', 1);
    const s = await session(acct.id);
    const other = await second();
    const [x, y] = await Promise.all([
      store.updateSession(s, { ...s, status: 'inProgress' }, 2),
      other.updateSession(s, { ...s, status: 'incomplete', finishedAt: 3 }, 3),
    ]);
    expect([x, y].filter((r) => r !== null)).toHaveLength(1);
    expect(await store.updateSession(s, { ...s, status: 'incomplete' }, 3)).toBeNull();
    expect(await store.listEvents({ sessionId: s.id })).toHaveLength(2);
    expect((await other.getSessionById(s.id))?.rev).toBe(1);
  });

  it('reads a session by scope, with its secret, and by id alone', async () => {
    const acct = await store.ensureAccount('a', 1);
    const s = await session(acct.id, 7);
    expect(await store.getSession({ accountId: acct.id, mode: 'test' }, s.id)).toEqual(s);
    expect(await store.getSession({ accountId: acct.id, mode: 'live' }, s.id)).toBeNull();
    expect(await store.getSession({ accountId: 'acct_other', mode: 'test' }, s.id)).toBeNull();
    const withSecret = await store.getSessionWithSecret({ accountId: acct.id, mode: 'test' }, s.id);
    expect(withSecret?.session).toEqual(s);
    expect(withSecret?.secret).toMatchObject({ secret: 'cs_7', sessionId: s.id, usedAt: null });
    expect(await store.getSessionWithSecret({ accountId: acct.id, mode: 'live' }, s.id)).toBeNull();
    expect(await store.getSessionById('sess_none')).toBeNull();
  });

  it('pages by creation and by status, filtered and searched, with totals', async () => {
    const acct = await store.ensureAccount('a', 1);
    const all: SessionRecord[] = [];
    for (let i = 0; i < 9; i++) {
      const s = sessionRecord({
        id: `sess_${i}`,
        accountId: acct.id,
        mode: 'test',
        createdAt: 1000 + (i % 4),
        flowId: i % 2 ? 'odd' : 'even',
        clientReferenceId: i < 3 ? 'ref-A' : null,
        settings: { metadata: { tier: i === 4 ? 'Gold Plus' : 'basic' } },
      });
      await store.createSession(s, secretRecord(s.id));
      all.push(
        i % 3 === 0 ? (await store.updateSession(s, { ...s, status: 'inProgress' }, 5))! : s,
      );
    }
    await store.createSession(
      sessionRecord({ id: 'sess_live', accountId: acct.id, mode: 'live' }),
      secretRecord('sess_live'),
    );
    const scope = { accountId: acct.id, mode: 'test' as const };
    const pages = async (query: Partial<Parameters<SessionStore['listSessions']>[1]>) => {
      const seen: string[] = [];
      let after: (string | number)[] | null = null;
      let total: number | undefined;
      for (let n = 0; n < 20; n++) {
        const page = await store.listSessions(scope, {
          limit: 2,
          sortBy: 'createdAt',
          sortOrder: 'desc',
          includeTotal: true,
          ...query,
          after,
        });
        seen.push(...page.sessions.map((s) => s.id));
        total = page.totalCount;
        if (!page.hasMore) break;
        after = page.next;
      }
      return { seen, total };
    };
    const order = (sortBy: 'createdAt' | 'status', dir: 1 | -1, list = all) =>
      [...list]
        .sort(
          (a, b) =>
            dir *
            ((sortBy === 'status'
              ? ['created', 'inProgress'].indexOf(a.status) -
                ['created', 'inProgress'].indexOf(b.status)
              : 0) ||
              a.createdAt - b.createdAt ||
              (a.id < b.id ? -1 : 1)),
        )
        .map((s) => s.id);
    expect(await pages({})).toEqual({ seen: order('createdAt', -1), total: 9 });
    expect(await pages({ sortOrder: 'asc' })).toEqual({ seen: order('createdAt', 1), total: 9 });
    expect(await pages({ sortBy: 'status', sortOrder: 'asc' })).toEqual({
      seen: order('status', 1),
      total: 9,
    });
    const odd = all.filter((s) => s.flowId === 'odd');
    expect(await pages({ flowId: 'odd' })).toEqual({ seen: order('createdAt', -1, odd), total: 4 });
    expect((await pages({ clientReferenceId: 'ref-A' })).seen.sort()).toEqual([
      'sess_0',
      'sess_1',
      'sess_2',
    ]);
    expect(await pages({ search: 'gold p' })).toEqual({ seen: ['sess_4'], total: 1 });
    expect((await pages({ statuses: ['inProgress'] })).total).toBe(3);
    expect((await pages({ fromDate: 1002, toDate: 1003 })).seen.sort()).toEqual([
      'sess_2',
      'sess_6',
    ]);
  });

  it('pages by finishedAt through finished and unfinished sessions alike, in both orders and under status filters', async () => {
    const acct = await store.ensureAccount('a', 1);
    const all: SessionRecord[] = [];
    for (let i = 0; i < 14; i++) {
      const s = await session(acct.id, i);
      if (i % 3 === 0) {
        all.push(s);
        continue;
      }
      const open = await store.updateSession(
        s,
        { ...s, status: 'inProgress', startedAt: 2000 },
        2000,
      );
      if (i % 3 === 1) {
        all.push(open!);
        continue;
      }
      const finishedAt = i === 5 ? 4000 : 5000 - i * 37;
      const status = i % 2 ? 'complete' : 'incomplete';
      all.push((await store.updateSession(open!, { ...open!, status, finishedAt }, finishedAt))!);
    }
    const scope = { accountId: acct.id, mode: 'test' as const };
    const key = (s: SessionRecord) => [s.finishedAt ?? 0, s.createdAt, s.id] as const;
    const byKey = (a: SessionRecord, b: SessionRecord) => {
      const [x, y] = [key(a), key(b)];
      return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : 1);
    };
    const filters = [undefined, ['created'], ['inProgress', 'complete'], ['incomplete']] as const;
    for (const sortOrder of ['asc', 'desc'] as const) {
      for (const statuses of filters) {
        const expected = all
          .filter((s) => !statuses || (statuses as readonly string[]).includes(s.status))
          .sort((a, b) => (sortOrder === 'asc' ? byKey(a, b) : byKey(b, a)))
          .map((s) => s.id);
        for (const limit of [1, 3, 50]) {
          const seen: string[] = [];
          let after: (string | number)[] | null = null;
          for (let pages = 0; pages < 20; pages++) {
            const page = await store.listSessions(scope, {
              limit,
              sortBy: 'finishedAt',
              sortOrder,
              after,
              includeTotal: true,
              ...(statuses ? { statuses: [...statuses] } : {}),
            });
            seen.push(...page.sessions.map((s) => s.id));
            expect(page.totalCount).toBe(expected.length);
            if (!page.hasMore) break;
            after = page.next;
          }
          expect(seen, `${sortOrder} ${statuses?.join(',') ?? 'all'} by ${limit}`).toEqual(
            expected,
          );
        }
      }
    }
  });

  it('lists the sessions a timeout should end', async () => {
    const acct = await store.ensureAccount('a', 1);
    const unopened = await session(acct.id, 1);
    const fresh = await session(acct.id, 500);
    const idle = await session(acct.id, 2);
    await store.updateSession(idle, { ...idle, status: 'inProgress', lastActivityAt: 1200 }, 1200);
    const busy = await session(acct.id, 3);
    await store.updateSession(busy, { ...busy, status: 'inProgress', lastActivityAt: 9000 }, 9000);
    const found = await store.listTimedOut(1100, 5000, 10);
    expect(found.map((s) => s.id).sort()).toEqual([unopened.id, idle.id]);
    expect(found.map((s) => s.id)).not.toContain(fresh.id);
    expect(await store.listTimedOut(1100, 5000, 1)).toHaveLength(1);
  });

  it('finds a session by a client secret that names it, and only by the whole secret', async () => {
    const acct = await store.ensureAccount('a', 1);
    const s = sessionRecord({ id: 'sess_a1', accountId: acct.id, mode: 'test', flowId: 'f' });
    const secret = clientSecret(s.id);
    await store.createSession(s, secretRecord(s.id, secret, 1000));
    await store.createSession(
      sessionRecord({ id: 'sess_b2', accountId: acct.id, mode: 'test', flowId: 'f' }),
      secretRecord('sess_b2', clientSecret('sess_b2'), 1000),
    );
    expect((await store.getSessionBySecret(secret))?.id).toBe('sess_a1');
    const random = secret.slice(0, secret.indexOf('.'));
    const otherLast = random.endsWith('A') ? 'E' : 'A';
    const oneCharOff = `${random.slice(0, -1)}${otherLast}.sess_a1`;
    for (const wrong of [`${random}.sess_b2`, oneCharOff, `${random}.`]) {
      expect(await store.getSessionBySecret(wrong)).toBeNull();
      const out = await store.exchangeClientSecret({
        secret: wrong,
        now: 2000,
        token: { hash: `h-${wrong}`, expiresAt: 9000 },
        apply: (x) => x,
      });
      expect(out).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('spends a client secret once across connections, and a refresh retires it', async () => {
    const acct = await store.ensureAccount('a', 1);
    const s = sessionRecord({ id: 'sess_x', accountId: acct.id, mode: 'test' });
    const secret = clientSecret(s.id);
    await store.createSession(s, secretRecord(s.id, secret, 1000));
    const other = await second();
    const exchange = (on: SessionStore, hash: string) =>
      on.exchangeClientSecret({
        secret,
        now: 2000,
        token: { hash, expiresAt: 9000 },
        apply: (x) => ({ ...x, status: 'inProgress', startedAt: 2000 }),
      });
    const outs = await Promise.all([exchange(store, 't1'), exchange(other, 't2')]);
    expect(outs.filter((o) => o.ok)).toHaveLength(1);
    expect(outs.find((o) => !o.ok)).toEqual({ ok: false, reason: 'used' });
    const winner = outs[0]!.ok ? 't1' : 't2';
    expect(await store.findClientToken(winner)).toMatchObject({
      sessionId: s.id,
      expiresAt: 9000,
      revokedAt: null,
      movedAt: null,
    });
    expect((await store.getSessionById(s.id))?.status).toBe('inProgress');
    expect((await store.getLatestClientSecret(s.id))?.usedAt).toBe(2000);
    const scope = { accountId: acct.id, mode: 'test' as const };
    const next = clientSecret(s.id);
    expect(await other.refreshClientSecret(scope, s.id, secretRecord(s.id, next, 3000))).toBe('ok');
    expect((await store.findClientToken(winner))?.revokedAt).toBe(3000);
    expect(await exchange(store, 't3')).toEqual({ ok: false, reason: 'used' });
    expect((await store.getSessionBySecret(secret))?.id).toBe(s.id);
    expect(await store.getLatestClientSecret(s.id)).toMatchObject({ secret: next, usedAt: null });
    expect(
      await store.refreshClientSecret({ ...scope, mode: 'live' }, s.id, secretRecord(s.id)),
    ).toBe('not_found');
    // A refresh past a timeout ends the session instead, and is refused as finished.
    const ended = await store.refreshClientSecret(
      scope,
      s.id,
      secretRecord(s.id, 'cs_z', 4000),
      (x) => ({
        ...x,
        status: 'incomplete',
        finishedAt: 4000,
      }),
    );
    expect(ended).toBe('finished');
    expect((await store.getSessionById(s.id))?.status).toBe('incomplete');
    expect(await store.getLatestClientSecret(s.id)).toMatchObject({ secret: next });
  });

  it('refuses an expired secret, and ends a session past its timeout on exchange', async () => {
    const acct = await store.ensureAccount('a', 1);
    await store.createSession(
      sessionRecord({ id: 'sess_e', accountId: acct.id }),
      secretRecord('sess_e', 'cs_e', 1000),
    );
    const base = { token: { hash: 'h', expiresAt: 1 }, apply: (x: SessionRecord) => x };
    expect(await store.exchangeClientSecret({ ...base, secret: 'cs_e', now: 3_601_000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(
      await store.exchangeClientSecret({
        ...base,
        secret: 'cs_e',
        now: 2000,
        expire: (x) => ({ ...x, status: 'incomplete', finishedAt: 2000 }),
      }),
    ).toEqual({ ok: false, reason: 'expired' });
    expect((await store.getSessionById('sess_e'))?.status).toBe('incomplete');
    expect(await store.findClientToken('h')).toBeNull();
  });

  it('revokes keys by an unambiguous prefix only', async () => {
    const acct = await store.ensureAccount('a', 1);
    const key = { accountId: acct.id, mode: 'test' as const };
    await store.insertApiKey({
      ...key,
      id: 'k1',
      prefix: 'sk_test_AAAA1111',
      hash: 'h1',
      createdAt: 1,
    });
    await store.insertApiKey({
      ...key,
      id: 'k2',
      prefix: 'sk_test_AAAA2222',
      hash: 'h2',
      createdAt: 2,
    });
    expect(await store.findApiKeyByHash('h2')).toMatchObject({ id: 'k2', accountName: 'a' });
    expect(await store.revokeApiKey('sk_test_AAAA', 5)).toMatchObject({ error: 'ambiguous' });
    expect(await store.revokeApiKey('sk_test_ZZZZ', 5)).toMatchObject({ error: 'none' });
    expect(await store.revokeApiKey('sk_test_AAAA2222_and_the_rest_of_the_key', 5)).toMatchObject({
      revoked: { id: 'k2', revokedAt: 5 },
    });
    // Another connection (the CLI, another instance) sees the revocation at once.
    expect((await (await second()).findApiKeyByHash('h2'))?.revokedAt).toBe(5);
    expect(await store.revokeApiKey('sk_test_AAAA', 6)).toMatchObject({ revoked: { id: 'k1' } });
    expect(await store.revokeApiKey('sk_test_AAAA%', 6)).toMatchObject({ error: 'none' });
    expect((await store.listApiKeys()).map((k) => [k.id, k.revokedAt])).toEqual([
      ['k1', 6],
      ['k2', 5],
    ]);
  });

  it('makes one account of a name, however many ask at once', async () => {
    const other = await second();
    const made = await Promise.all([
      store.ensureAccount('acme', 1),
      other.ensureAccount('acme', 2),
      store.ensureAccount('acme', 3),
    ]);
    expect(new Set(made.map((a) => a.id)).size).toBe(1);
    expect(await store.countAccounts()).toBe(1);
    expect(await store.findAccount('nobody')).toBeNull();
  });

  it('lets one of two connections claim a hand-off link, and marks the earlier tokens moved', async () => {
    const acct = await store.ensureAccount('acme', 1);
    const s = sessionRecord({ id: 'sess_h1', accountId: acct.id, mode: 'test', flowId: 'f' });
    await store.createSession(s, secretRecord(s.id, 'cs_h1', 1000));
    const opened = await store.exchangeClientSecret({
      secret: 'cs_h1',
      now: 1500,
      token: { hash: 'desktop', expiresAt: 99_000 },
      apply: (x) => ({ ...x, status: 'inProgress' }),
    });
    expect(opened.ok).toBe(true);
    const other = await second();
    const offer = { codeHash: 'code1', sessionId: 'sess_h1', createdAt: 2000, expiresAt: 3000 };
    const claim = (on: SessionStore, token: string, now = 2500, codeHash = 'code1') =>
      on.claimHandoff({ codeHash, now, token: { hash: token, expiresAt: 99_000 } });
    expect(await store.offerHandoff(offer)).toBe('ok');
    expect(await claim(store, 't0', 3000)).toEqual({ ok: false, reason: 'expired' });
    const [first, later] = await Promise.all([claim(store, 'phone-a'), claim(other, 'phone-b')]);
    expect([first.ok, later.ok].sort()).toEqual([false, true]);
    expect([first, later].find((r) => !r.ok)).toEqual({ ok: false, reason: 'used' });
    expect((await other.findClientToken('desktop'))?.movedAt).toBe(2500);
    const winner = first.ok ? 'phone-a' : 'phone-b';
    const loser = first.ok ? 'phone-b' : 'phone-a';
    expect((await store.findClientToken(winner))?.movedAt).toBeNull();
    expect(await store.findClientToken(loser)).toBeNull();
    expect(await other.latestHandoff('sess_h1')).toMatchObject({ claimedAt: 2500 });
    await store.offerHandoff({ ...offer, codeHash: 'code2', createdAt: 2600, expiresAt: 4000 });
    await store.offerHandoff({ ...offer, codeHash: 'code3', createdAt: 2600, expiresAt: 4000 });
    expect(await claim(other, 't2', 2700, 'code2')).toEqual({ ok: false, reason: 'expired' });
    expect(await other.latestHandoff('sess_h1')).toMatchObject({ codeHash: 'code3' });
    expect(await claim(store, 't3', 2700, 'nope')).toEqual({ ok: false, reason: 'invalid' });
    const done = (await store.getSessionById('sess_h1'))!;
    await store.updateSession(done, { ...done, status: 'complete', finishedAt: 2800 }, 2800);
    expect(await claim(store, 't4', 2900, 'code3')).toEqual({ ok: false, reason: 'finished' });
    expect(await store.offerHandoff({ ...offer, codeHash: 'code4' })).toBe('finished');
  });

  const limits = { perNode: 3, perSession: 4, destinationsPerSession: 2 };
  const send = (
    sessionId: string,
    sentAt: number,
    codeHash: string,
    more: Partial<OtpSendClaim['otp']> = {},
    chosenByPage = false,
  ): OtpSendClaim => ({
    otp: {
      sessionId,
      nodeId: 'otp',
      channel: 'email',
      destination: 'a@example.com',
      codeHash,
      sentAt,
      expiresAt: sentAt + 300_000,
      ...more,
    },
    chosenByPage,
    resendAfterMs: 10_000,
    limits,
  });

  it('keeps wrong code attempts across resends and compares no code once they are used up', async () => {
    const account = await store.ensureAccount('acme', 0);
    const id = 'sess_otp1';
    await store.createSession(sessionRecord({ id, accountId: account.id }), secretRecord(id));
    expect(await store.claimOtpSend(send(id, 1000, 'first'))).toEqual({ ok: true });
    const check = (code: string, now = 20_000) =>
      store.checkOtp({
        sessionId: id,
        nodeId: 'otp',
        now,
        maxAttempts: 3,
        matches: (hash) => hash === code,
      });
    expect(await check('nope')).toMatchObject({ status: 'checked', ok: false, attempts: 1 });
    expect(await store.claimOtpSend(send(id, 5000, 'early'))).toEqual({
      ok: false,
      reason: 'too_soon',
      retryAt: 11_000,
    });
    expect(await store.claimOtpSend(send(id, 11_000, 'second'))).toEqual({ ok: true });
    expect((await store.getOtp(id, 'otp'))?.attempts).toBe(1);
    expect(await check('second')).toMatchObject({ ok: true, attempts: 1 });
    expect(await check('first')).toMatchObject({ ok: false, attempts: 2 });
    expect(await check('nope')).toMatchObject({ ok: false, attempts: 3 });
    expect(await check('second')).toMatchObject({ status: 'checked', ok: false, attempts: 3 });
    expect(await check('second', 400_000)).toEqual({ status: 'expired' });
    expect(
      await store.checkOtp({
        sessionId: id,
        nodeId: 'x',
        now: 1,
        maxAttempts: 3,
        matches: () => true,
      }),
    ).toEqual({
      status: 'not_sent',
    });
  });

  it('caps code sends per node, per session and per chosen destination, under concurrent sends', async () => {
    const account = await store.ensureAccount('acme', 0);
    const id = 'sess_otp2';
    await store.createSession(sessionRecord({ id, accountId: account.id }), secretRecord(id));
    const other = await second();
    // Five sends at once, with no wait asked between them: only the node's cap stops them.
    const outs = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        (i % 2 ? other : store).claimOtpSend({ ...send(id, 1000, `c${i}`), resendAfterMs: 0 }),
      ),
    );
    expect(outs.filter((o) => o.ok)).toHaveLength(3);
    expect(outs.filter((o) => !o.ok)).toEqual([
      { ok: false, reason: 'node_limit', limit: 3 },
      { ok: false, reason: 'node_limit', limit: 3 },
    ]);
    const node2 = (at: number, destination: string, chosen = true) =>
      store.claimOtpSend(send(id, at, 'd', { nodeId: 'otp2', destination }, chosen));
    expect(await node2(200_000, 'x@example.com')).toEqual({ ok: true });
    expect(await node2(300_000, 'y@example.com')).toEqual({
      ok: false,
      reason: 'session_limit',
      limit: 4,
    });
  });

  it('caps the destinations a page may choose', async () => {
    const account = await store.ensureAccount('acme', 0);
    const id = 'sess_otp3';
    await store.createSession(sessionRecord({ id, accountId: account.id }), secretRecord(id));
    const at = (n: number, destination: string, nodeId: string) =>
      store.claimOtpSend(send(id, n, 'd', { nodeId, destination }, true));
    expect(await at(1000, 'x@example.com', 'n1')).toEqual({ ok: true });
    expect(await at(1000, 'y@example.com', 'n2')).toEqual({ ok: true });
    expect(await at(1000, 'z@example.com', 'n3')).toEqual({
      ok: false,
      reason: 'destination_limit',
      limit: 2,
    });
    expect(await at(20_000, 'x@example.com', 'n1')).toEqual({ ok: true });
  });

  it('keeps the avatars and languages', async () => {
    const langs = await store.listLangs();
    expect(langs[0]).toEqual({ id: 'en', title: expect.any(String) as string });
    const before = await store.listAvatars();
    expect(before.length).toBeGreaterThan(0);
    const avatar = {
      id: 'av_x',
      name: 'X',
      gender: 'unknown' as const,
      imageUrl: '/x.svg',
      createdAt: 1,
    };
    await store.upsertAvatar(avatar);
    expect((await store.listAvatars())[0]).toEqual(avatar);
    await store.upsertAvatar({ ...avatar, name: 'Y', createdAt: 99 });
    expect(await store.getAvatar('av_x')).toEqual({ ...avatar, name: 'Y' });
    expect(await store.deleteAvatar('av_x')).toBe(true);
    expect(await store.deleteAvatar('av_x')).toBe(false);
    expect(await store.getAvatar('av_x')).toBeNull();
  });

  it('keeps the outbox in the order written, by session and after a sequence number', async () => {
    const acct = await store.ensureAccount('a', 1);
    await session(acct.id, 1);
    const event = {
      id: 'evt_settings',
      accountId: acct.id,
      mode: 'live' as const,
      type: 'settings.updated',
      sessionId: '',
      createdAt: 5,
      payload: '{"b":1,"a":2.5}',
    };
    await store.appendEvent(event);
    await session(acct.id, 2);
    const all = await store.listEvents({});
    expect(all.map((e) => e.sessionId)).toEqual(['sess_0001', '', 'sess_0002']);
    expect(all[1]).toMatchObject(event);
    expect((await store.listEvents({ after: all[0]!.seq, limit: 1 })).map((e) => e.id)).toEqual([
      'evt_settings',
    ]);
    expect(await store.listEvents({ sessionId: 'sess_0002', after: all[2]!.seq })).toEqual([]);
  });

  const idemScope = { accountId: 'acct_1', mode: 'test' as const };
  const idem = (over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
    ...idemScope,
    key: 'k1',
    requestHash: 'h1',
    sessionId: 'sess_1',
    status: 200,
    body: '{"session":{}}',
    createdAt: 1000,
    expiresAt: 2000,
    ...over,
  });

  it('stores one of two concurrent puts of an idempotency key; the other gets it back', async () => {
    const other = await second();
    const outs = await Promise.all([
      store.putIdempotencyKey(idem(), 1000),
      other.putIdempotencyKey(idem({ sessionId: 'sess_2', requestHash: 'h2' }), 1000),
    ]);
    expect(outs.filter((o) => o.stored)).toHaveLength(1);
    const lost = outs.find((o) => !o.stored);
    const won = outs[0]!.stored ? idem() : idem({ sessionId: 'sess_2', requestHash: 'h2' });
    expect(lost).toEqual({ stored: false, existing: won });
    expect(await other.findIdempotencyKey(idemScope, 'k1', 1001)).toEqual(won);
  });

  it('keeps idempotency keys apart per account and mode, and forgets expired ones', async () => {
    await store.putIdempotencyKey(idem(), 1000);
    expect(await store.putIdempotencyKey(idem({ mode: 'live' }), 1000)).toEqual({ stored: true });
    expect(await store.putIdempotencyKey(idem({ accountId: 'acct_2' }), 1000)).toEqual({
      stored: true,
    });
    expect(await store.findIdempotencyKey(idemScope, 'k1', 1999)).not.toBeNull();
    expect(await store.findIdempotencyKey(idemScope, 'k1', 2000)).toBeNull();
    const fresh = idem({ sessionId: 'sess_9', createdAt: 2000, expiresAt: 3000 });
    expect(await store.putIdempotencyKey(fresh, 2000)).toEqual({ stored: true });
    expect(await store.findIdempotencyKey(idemScope, 'k1', 2000)).toEqual(fresh);
    await store.dropIdempotencyKey(idemScope, 'k1', 'sess_other');
    expect(await store.findIdempotencyKey(idemScope, 'k1', 2000)).not.toBeNull();
    await store.dropIdempotencyKey(idemScope, 'k1', 'sess_9');
    expect(await store.findIdempotencyKey(idemScope, 'k1', 2000)).toBeNull();
  });

  it('purges expired idempotency keys in batches', async () => {
    for (let i = 0; i < 5; i++) {
      await store.putIdempotencyKey(idem({ key: `k${i}`, expiresAt: 1500 + i * 100 }), 1000);
    }
    expect(await store.purgeIdempotencyKeys(1700, 10)).toBe(3);
    expect(await store.purgeIdempotencyKeys(5000, 1)).toBe(1);
    expect(await store.purgeIdempotencyKeys(5000, 10)).toBe(1);
    expect(await store.purgeIdempotencyKeys(5000, 10)).toBe(0);
  });
});
