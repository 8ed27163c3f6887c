import type { Database } from 'better-sqlite3';
import { newId } from '../ids';
import type { OtherWriters } from './otherWriters';
import type { Account, AccountStore, ApiKeyRecord } from './types';

interface AccountRow {
  id: string;
  name: string;
  created_at: number;
}

interface KeyRow {
  id: string;
  account_id: string;
  account_name: string;
  mode: 'test' | 'live';
  prefix: string;
  hash: string;
  created_at: number;
  revoked_at: number | null;
}

const accountOf = (r: AccountRow): Account => ({ id: r.id, name: r.name, createdAt: r.created_at });

const keyOf = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  accountName: r.account_name,
  mode: r.mode,
  prefix: r.prefix,
  hash: r.hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

const KEY_SELECT = `SELECT k.id, k.account_id, a.name AS account_name, k.mode, k.prefix, k.hash,
  k.created_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id`;

const KEYS_KEPT_MAX = 10_000;

/**
 * Accounts and their API keys (`accounts`, `api_keys`) over one SQLite database. A key is looked
 * up by the SHA-256 of its text on every API request, and revoked by a prefix of it. Lookups are
 * kept in memory, dropped whenever this store changes a key or `writers` notices another
 * connection's commit (a key revoked from the command line).
 *
 * @example
 * const accounts = sqliteAccounts(db, watchOtherWriters(db));
 * const acct = await accounts.ensureAccount('acme', Date.now());
 */
export function sqliteAccounts(db: Database, writers: OtherWriters): AccountStore {
  const s = {
    byName: db.prepare('SELECT id, name, created_at FROM accounts WHERE name = ?'),
    insert: db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)'),
    count: db.prepare('SELECT count(*) FROM accounts').pluck(),
    insertKey: db.prepare(`INSERT INTO api_keys (id, account_id, mode, prefix, hash, created_at)
      VALUES (?, ?, ?, ?, ?, ?)`),
    keyByHash: db.prepare(`${KEY_SELECT} WHERE k.hash = ?`),
    keys: db.prepare(`${KEY_SELECT} ORDER BY k.created_at, k.id`),
    keysByPrefix: db.prepare(
      `${KEY_SELECT} WHERE k.prefix LIKE ? ESCAPE '\\' AND k.revoked_at IS NULL`,
    ),
    revokeKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  };
  const kept = new Map<string, ApiKeyRecord | null>();
  writers.onCommit(() => kept.clear());
  const ensure = db.transaction((name: string, now: number): Account => {
    const found = s.byName.get(name) as AccountRow | undefined;
    if (found) return accountOf(found);
    const id = newId('acct');
    s.insert.run(id, name, now);
    return { id, name, createdAt: now };
  });
  const revoke = db.transaction((prefix: string, now: number) => {
    // A whole key is longer than the stored prefix: compare on the stored length.
    const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows = (s.keysByPrefix.all(`${escaped}%`) as KeyRow[]).map(keyOf);
    const matches = rows.length
      ? rows
      : (s.keys.all() as KeyRow[])
          .map(keyOf)
          .filter((k) => k.revokedAt === null && prefix.startsWith(k.prefix));
    if (matches.length === 0) return { error: 'none' as const, matches };
    if (matches.length > 1) return { error: 'ambiguous' as const, matches };
    const key = matches[0] as ApiKeyRecord;
    s.revokeKey.run(now, key.id);
    kept.clear();
    return { revoked: { ...key, revokedAt: now } };
  });
  return {
    async ensureAccount(name, now) {
      return ensure.immediate(name, now);
    },
    async findAccount(name) {
      const r = s.byName.get(name) as AccountRow | undefined;
      return r ? accountOf(r) : null;
    },
    async countAccounts() {
      return s.count.get() as number;
    },
    async insertApiKey(k) {
      kept.clear();
      s.insertKey.run(k.id, k.accountId, k.mode, k.prefix, k.hash, k.createdAt);
    },
    async findApiKeyByHash(hash) {
      writers.check();
      const hit = kept.get(hash);
      if (hit !== undefined) return hit;
      const r = s.keyByHash.get(hash) as KeyRow | undefined;
      const key = r ? keyOf(r) : null;
      if (kept.size >= KEYS_KEPT_MAX) kept.clear();
      kept.set(hash, key);
      return key;
    },
    async listApiKeys() {
      return (s.keys.all() as KeyRow[]).map(keyOf);
    },
    async revokeApiKey(prefix, now) {
      return revoke.immediate(prefix, now);
    },
  };
}
