import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientSecret } from '../ids';
import { CORE_MIGRATIONS } from './migrations';
import { secretRecord, sessionRecord } from './records';
import { openSqliteStore } from './sqlite';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-migrate-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const opening = (secret: string, token: string, now: number) => ({
  secret,
  now,
  token: { hash: token, expiresAt: now + 60_000 },
  apply: <S extends { status: string }>(s: S) => ({ ...s, status: 'inProgress', startedAt: now }),
});

describe('core_0002_sessions_lean_indexes', () => {
  it('keeps the sessions, client tokens, triggers and secrets made before it', async () => {
    const path = join(dir, 'db.sqlite');
    const old = openSqliteStore({
      path,
      migrations: CORE_MIGRATIONS.filter((m) => m.id === 'core_0001_init'),
    });
    const acct = await old.ensureAccount('a', 1);
    // Secrets as they were made then: time-ordered, naming no session.
    const unused = 'cs_019a8f0c2b1eAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const used = 'cs_019a8f0c2b1fBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    for (const [id, secret] of [
      ['sess_old1', unused],
      ['sess_old2', used],
    ] as const) {
      const s = sessionRecord({ id, accountId: acct.id, mode: 'test', flowId: 'f' });
      await old.createSession(s, secretRecord(id, secret, 1000));
    }
    const first = await old.exchangeClientSecret(opening(used, 'tok', 2000) as never);
    expect(first.ok).toBe(true);
    old.db.exec(`CREATE TABLE seen (id TEXT);
      CREATE TRIGGER sessions_seen AFTER UPDATE OF status ON sessions
      BEGIN INSERT INTO seen VALUES (new.id); END`);
    await old.close();

    const store = openSqliteStore({ path });
    try {
      const indexes = store.db.pragma('index_list(sessions)') as {
        name: string;
        origin: string;
        partial: number;
      }[];
      // No unique constraint left besides the primary key; the two partial indexes are there.
      expect(indexes.filter((i) => i.origin === 'u')).toEqual([]);
      expect(
        indexes
          .filter((i) => i.partial)
          .map((i) => i.name)
          .sort(),
      ).toEqual(['sessions_by_finished', 'sessions_by_legacy_secret']);
      // An old secret is found through its index, not by reading every session.
      const plan = store.db
        .prepare(
          "EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE secret = ? AND instr(secret, '.') = 0",
        )
        .all(unused) as { detail: string }[];
      expect(plan.map((r) => r.detail).join(' | ')).toMatch(/INDEX sessions_by_legacy_secret/);
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('foreign_key_check')).toEqual([]);

      // The old secrets still work as they did: one unused, one used.
      expect((await store.getSessionBySecret(unused))?.id).toBe('sess_old1');
      const again = await store.exchangeClientSecret(opening(used, 'tok2', 3000) as never);
      expect(again).toEqual({ ok: false, reason: 'used' });
      expect((await store.findClientToken('tok'))?.sessionId).toBe('sess_old2');
      const opened = await store.exchangeClientSecret(opening(unused, 'tok3', 3000) as never);
      expect(opened.ok).toBe(true);
      // The trigger came through the rebuild.
      expect(store.db.prepare('SELECT id FROM seen ORDER BY rowid').all()).toEqual([
        { id: 'sess_old1' },
      ]);

      // A refresh gives an old session a secret that names it; the old one is dead.
      const fresh = clientSecret('sess_old1');
      const scope = { accountId: acct.id, mode: 'test' as const };
      expect(
        await store.refreshClientSecret(scope, 'sess_old1', secretRecord('sess_old1', fresh, 4000)),
      ).toBe('ok');
      expect((await store.getSessionBySecret(fresh))?.id).toBe('sess_old1');
      const dead = await store.exchangeClientSecret(opening(unused, 'tok4', 4000) as never);
      expect(dead).toEqual({ ok: false, reason: 'used' });
    } finally {
      await store.close();
    }
  });
});
