import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allMigrations, registerMigrations } from './migrations';
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
    expect(ids).toEqual(allMigrations().map((m) => m.id));
    await store.close();
    store = openSqliteStore({ path: join(dir, 'db.sqlite'), synchronous: 'FULL' });
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(
      (store.db.prepare('SELECT count(*) AS n FROM migrations').get() as { n: number }).n,
    ).toBe(ids.length);
  });

  it('applies registered migrations of other features after its own, once', async () => {
    registerMigrations({
      id: 'test_0001_extra',
      up: (db) => db.exec('CREATE TABLE extra (id TEXT)'),
    });
    await store.close();
    store = openSqliteStore({ path: join(dir, 'db.sqlite') });
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
      "SELECT id FROM sessions WHERE account_id = 'a' AND mode = 'test' AND (finished_sort, created_at, id) < (1, 5, 'x') ORDER BY finished_sort DESC, created_at DESC, id DESC LIMIT 51",
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
