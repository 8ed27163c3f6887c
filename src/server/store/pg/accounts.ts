import { newId } from '../../ids';
import type { Account, AccountStore, ApiKeyRecord } from '../types';
import type { Pg, PgQuery } from './client';

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

const keys = (q: PgQuery) => q<KeyRow[]>`SELECT k.id, k.account_id, a.name AS account_name,
  k.mode, k.prefix, k.hash, k.created_at, k.revoked_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.created_at, k.id`;

/**
 * Accounts and their API keys (`accounts`, `api_keys`) over PostgreSQL. Nothing is kept in
 * memory: another instance may revoke a key at any time, and a lookup by primary key is cheap.
 *
 * @example
 * const accounts = pgAccounts(pg);
 * const acct = await accounts.ensureAccount('acme', Date.now());
 */
export function pgAccounts(pg: Pg): AccountStore {
  const byName = async (q: PgQuery, name: string) => {
    const [r] = await q<
      AccountRow[]
    >`SELECT id, name, created_at FROM accounts WHERE name = ${name}`;
    return r ? accountOf(r) : null;
  };
  return {
    async ensureAccount(name, now) {
      const id = newId('acct');
      // Two instances ensuring one name: the unique name lets one insert; both read the same row.
      await pg`INSERT INTO accounts (id, name, created_at) VALUES (${id}, ${name}, ${now})
        ON CONFLICT (name) DO NOTHING`;
      const found = await byName(pg, name);
      if (!found) throw new Error(`account ${name} vanished while it was made`);
      return found;
    },
    findAccount: (name) => byName(pg, name),
    async countAccounts() {
      const [r] = await pg<{ n: number }[]>`SELECT count(*) AS n FROM accounts`;
      return r?.n ?? 0;
    },
    async insertApiKey(k) {
      await pg`INSERT INTO api_keys (id, account_id, mode, prefix, hash, created_at)
        VALUES (${k.id}, ${k.accountId}, ${k.mode}, ${k.prefix}, ${k.hash}, ${k.createdAt})`;
    },
    async findApiKeyByHash(hash) {
      const [r] = await pg<KeyRow[]>`SELECT k.id, k.account_id, a.name AS account_name, k.mode,
        k.prefix, k.hash, k.created_at, k.revoked_at
        FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ${hash}`;
      return r ? keyOf(r) : null;
    },
    async listApiKeys() {
      return (await keys(pg)).map(keyOf);
    },
    async revokeApiKey(prefix, now) {
      return pg.begin(async (tx) => {
        // A whole key is longer than the stored prefix: either may start the other.
        const matches = (await keys(tx))
          .map(keyOf)
          .filter(
            (k) =>
              k.revokedAt === null && (k.prefix.startsWith(prefix) || prefix.startsWith(k.prefix)),
          );
        const exact = matches.filter((k) => k.prefix.startsWith(prefix));
        const found = exact.length ? exact : matches;
        if (found.length === 0) return { error: 'none' as const, matches: found };
        if (found.length > 1) return { error: 'ambiguous' as const, matches: found };
        const key = found[0] as ApiKeyRecord;
        const done = await tx`UPDATE api_keys SET revoked_at = ${now}
          WHERE id = ${key.id} AND revoked_at IS NULL`;
        if (done.count === 0) return { error: 'none' as const, matches: [] };
        return { revoked: { ...key, revokedAt: now } };
      });
    },
  };
}
