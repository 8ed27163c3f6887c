import type { Database, Statement } from 'better-sqlite3';
import type { IdempotencyPutOutcome, IdempotencyRecord, IdempotencyStore, Mode } from './types';

/** A row of `idempotency_keys`, the same columns in the SQLite and PostgreSQL stores. */
export interface IdempotencyRow {
  account_id: string;
  mode: Mode;
  key: string;
  request_hash: string;
  session_id: string;
  status: number;
  body: string;
  created_at: number;
  expires_at: number;
}

/**
 * The record a row of `idempotency_keys` holds, for both stores.
 *
 * @example
 * const record = recordOf(row);
 */
export const recordOf = (r: IdempotencyRow): IdempotencyRecord => ({
  accountId: r.account_id,
  mode: r.mode,
  key: r.key,
  requestHash: r.request_hash,
  sessionId: r.session_id,
  status: r.status,
  body: r.body,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/**
 * The answers of creates made under an `Idempotency-Key` (`idempotency_keys`) over one SQLite
 * database. A put is one IMMEDIATE transaction (read, then insert or replace an expired record),
 * so two processes putting one key are serialised and exactly one wins. Prepared on first use,
 * like the codes: a database migrated only partly has no such table.
 *
 * @example
 * const keys = sqliteIdempotency(db);
 * await keys.putIdempotencyKey(record, Date.now()); // { stored: true }
 * await keys.putIdempotencyKey(record, Date.now()); // { stored: false, existing: record }
 */
export function sqliteIdempotency(db: Database): IdempotencyStore {
  let statements: IdempotencyStatements | null = null;
  const s = () => (statements ??= new IdempotencyStatements(db));
  return {
    async findIdempotencyKey(scope, key, now) {
      return s().find(scope.accountId, scope.mode, key, now);
    },
    async putIdempotencyKey(record, now) {
      return s().put(record, now);
    },
    async dropIdempotencyKey(scope, key, sessionId) {
      s().drop.run(scope.accountId, scope.mode, key, sessionId);
    },
    async purgeIdempotencyKeys(now, limit) {
      return s().purge.run(now, limit).changes;
    },
  };
}

class IdempotencyStatements {
  readonly drop: Statement;
  readonly purge: Statement;
  private readonly get: Statement;
  private readonly upsert: Statement;
  readonly put: (record: IdempotencyRecord, now: number) => IdempotencyPutOutcome;

  constructor(db: Database) {
    this.get = db.prepare(
      'SELECT * FROM idempotency_keys WHERE account_id = ? AND mode = ? AND key = ?',
    );
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO idempotency_keys (account_id, mode, key, request_hash, session_id,
        status, body, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.drop = db.prepare(
      'DELETE FROM idempotency_keys WHERE account_id = ? AND mode = ? AND key = ? AND session_id = ?',
    );
    this.purge = db.prepare(
      `DELETE FROM idempotency_keys WHERE (account_id, mode, key) IN
        (SELECT account_id, mode, key FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)`,
    );
    const put = db.transaction((r: IdempotencyRecord, now: number): IdempotencyPutOutcome => {
      const existing = this.find(r.accountId, r.mode, r.key, now);
      if (existing) return { stored: false, existing };
      this.upsert.run(
        r.accountId,
        r.mode,
        r.key,
        r.requestHash,
        r.sessionId,
        r.status,
        r.body,
        r.createdAt,
        r.expiresAt,
      );
      return { stored: true };
    });
    this.put = (record, now) => put.immediate(record, now);
  }

  find(accountId: string, mode: Mode, key: string, now: number): IdempotencyRecord | null {
    const row = this.get.get(accountId, mode, key) as IdempotencyRow | undefined;
    return row && row.expires_at > now ? recordOf(row) : null;
  }
}
