import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientSecret } from '../ids';
import { CORE_MIGRATIONS, type Migration } from './migrations';
import { secretRecord, sessionRecord } from './records';
import { openSqliteStore, type SqliteSessionStore } from './sqlite';
import type { SessionRecord } from './types';

let dir: string;
let store: SqliteSessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-store-'));
  store = openSqliteStore({ path: join(dir, 'db.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function session(accountId: string, i = 0): Promise<SessionRecord> {
  const id = `sess_${String(i).padStart(4, '0')}`;
  const s = sessionRecord({ id, accountId, mode: 'test', createdAt: 1000 + i, flowId: 'f' });
  await store.createSession(s, secretRecord(id, `cs_${i}`, s.createdAt));
  return s;
}

describe('the SQLite store', () => {
  it('runs in WAL mode with its migrations recorded once', async () => {
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
    const ids = (store.db.prepare('SELECT id FROM migrations').all() as { id: string }[]).map(
      (r) => r.id,
    );
    expect(ids).toEqual(CORE_MIGRATIONS.map((m) => m.id));
    await store.close();
    store = openSqliteStore({ path: join(dir, 'db.sqlite'), synchronous: 'FULL' });
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(
      (store.db.prepare('SELECT count(*) AS n FROM migrations').get() as { n: number }).n,
    ).toBe(ids.length);
  });

  it('applies the migrations of other features it is given after its own, once', async () => {
    const extra: Migration = {
      id: 'test_0001_extra',
      up: (db) => db.exec('CREATE TABLE extra (id TEXT)'),
    };
    await store.close();
    store = openSqliteStore({
      path: join(dir, 'db.sqlite'),
      migrations: [...CORE_MIGRATIONS, extra],
    });
    expect(
      store.db.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").get(),
    ).toBeTruthy();
    const ids = (
      store.db.prepare('SELECT id FROM migrations ORDER BY rowid').all() as { id: string }[]
    ).map((r) => r.id);
    expect(ids.at(-1)).toBe('test_0001_extra');
    expect(ids[0]).toBe('core_0001_init');
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
    // A failing event insert takes the status change down with it.
    store.db.exec(
      "CREATE TRIGGER no_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'boom'); END",
    );
    await expect(
      store.updateSession(started!, { ...started!, status: 'complete', finishedAt: 4000 }, 4000),
    ).rejects.toThrow(/boom/);
    expect((await store.getSessionById(s.id))?.status).toBe('inProgress');
    await expect(session(acct.id, 1)).rejects.toThrow(/boom/);
    expect(await store.getSessionById('sess_0001')).toBeNull();
    expect(await store.getLatestClientSecret('sess_0001')).toBeNull();
  });

  it('commits creates of one turn together, and one bad create fails only itself', async () => {
    const acct = await store.ensureAccount('a', 1);
    const good = session(acct.id, 1);
    // Same id as the first create of this turn: its insert fails inside the shared batch.
    const clash = session(acct.id, 1);
    const other = session(acct.id, 2);
    const settled = await Promise.allSettled([good, clash, other]);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.getSessionById('sess_0001'))?.id).toBe('sess_0001');
    expect((await store.getSessionById('sess_0002'))?.id).toBe('sess_0002');
    // Exactly one created event per stored session: the failed create left nothing behind.
    expect(await store.listEvents({ sessionId: 'sess_0001' })).toHaveLength(1);
    expect(await store.listEvents({ sessionId: 'sess_0002' })).toHaveLength(1);
  });

  it('refuses a stale write (optimistic concurrency)', async () => {
    const acct = await store.ensureAccount('a', 1);
    const s = await session(acct.id);
    expect(await store.updateSession(s, { ...s, status: 'inProgress' }, 2)).not.toBeNull();
    expect(await store.updateSession(s, { ...s, status: 'incomplete' }, 3)).toBeNull();
    expect(await store.listEvents({ sessionId: s.id })).toHaveLength(2);
  });

  it('lists through the sort indexes, without sorting in memory', () => {
    const plans = [
      "SELECT id FROM sessions WHERE account_id = 'a' AND mode = 'test' AND (created_at, id) < (5, 'x') ORDER BY created_at DESC, id DESC LIMIT 51",
      "SELECT id FROM sessions WHERE account_id = 'a' AND mode = 'test' AND (status_rank, created_at, id) > (1, 5, 'x') ORDER BY status_rank ASC, created_at ASC, id ASC LIMIT 51",
      // finishedAt: finished sessions by their own (partial) index, unfinished ones by status.
      "SELECT id FROM sessions WHERE account_id = 'a' AND mode = 'test' AND status_rank >= 2 AND (finished_sort, created_at, id) < (1, 5, 'x') ORDER BY finished_sort DESC, created_at DESC, id DESC LIMIT 51",
      "SELECT id FROM sessions WHERE account_id = 'a' AND mode = 'test' AND status_rank = 1 AND finished_sort = 0 AND (created_at, id) < (5, 'x') ORDER BY created_at DESC, id DESC LIMIT 51",
    ].map((sql) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | '),
    );
    const sweep = (
      store.db
        .prepare(
          "EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE account_id = 'a' AND mode = 'test' AND status_rank = 0 AND created_at < 5",
        )
        .all() as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(' | ');
    expect(sweep).toMatch(/INDEX sessions_by_status/);
    for (const plan of plans) {
      expect(plan).toMatch(/USING (COVERING )?INDEX sessions_by_/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
    expect(plans[2]).toMatch(/INDEX sessions_by_finished/);
    expect(plans[3]).toMatch(/INDEX sessions_by_status/);
  });

  it('pages by finishedAt through finished and unfinished sessions alike, in both orders and under status filters', async () => {
    const acct = await store.ensureAccount('a', 1);
    const all: SessionRecord[] = [];
    for (let i = 0; i < 14; i++) {
      const s = await session(acct.id, i);
      // Unfinished, open, and finished at times that interleave with creation (two share one).
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
    // Another last character, by construction: a fixed one would be the same one time in 16.
    // Both are characters a real secret can end with, so they differ in the bits they encode.
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
    const ok = await store.exchangeClientSecret({
      secret,
      now: 2000,
      token: { hash: 'h1', expiresAt: 9000 },
      apply: (x) => ({ ...x, status: 'inProgress', startedAt: 2000 }),
    });
    expect(ok.ok).toBe(true);
    // A new session enters neither the legacy secret index nor the finished one.
    const entries = (index: string, where: string) =>
      (
        store.db
          .prepare(`SELECT count(*) AS n FROM sessions INDEXED BY ${index} WHERE ${where}`)
          .get() as { n: number }
      ).n;
    expect(entries('sessions_by_legacy_secret', "instr(secret, '.') = 0")).toBe(0);
    expect(entries('sessions_by_finished', 'status_rank >= 2')).toBe(0);
  });

  it('revokes keys by an unambiguous prefix only', async () => {
    const acct = await store.ensureAccount('a', 1);
    await store.insertApiKey({
      id: 'k1',
      accountId: acct.id,
      mode: 'test',
      prefix: 'sk_test_AAAA1111',
      hash: 'h1',
      createdAt: 1,
    });
    await store.insertApiKey({
      id: 'k2',
      accountId: acct.id,
      mode: 'test',
      prefix: 'sk_test_AAAA2222',
      hash: 'h2',
      createdAt: 2,
    });
    expect(await store.revokeApiKey('sk_test_AAAA', 5)).toMatchObject({ error: 'ambiguous' });
    expect(await store.revokeApiKey('sk_test_ZZZZ', 5)).toMatchObject({ error: 'none' });
    expect(await store.revokeApiKey('sk_test_AAAA2222_and_the_rest_of_the_key', 5)).toMatchObject({
      revoked: { id: 'k2', revokedAt: 5 },
    });
    expect(await store.revokeApiKey('sk_test_AAAA', 6)).toMatchObject({ revoked: { id: 'k1' } });
    expect(await store.revokeApiKey('sk_test_AAAA%', 6)).toMatchObject({ error: 'none' });
  });
});
