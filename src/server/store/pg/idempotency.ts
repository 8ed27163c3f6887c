import type { IdempotencyStore } from '../types';
import { recordOf, type IdempotencyRow } from '../idempotency';
import type { Pg } from './client';

/**
 * The answers of creates made under an `Idempotency-Key` (`idempotency_keys`) over PostgreSQL. A
 * put is one upsert that replaces only an expired record: of two instances putting one key, the
 * second waits on the first's row and gets it back.
 *
 * @example
 * const keys = pgIdempotency(pg);
 * await keys.putIdempotencyKey(record, Date.now()); // { stored: true }
 * await keys.putIdempotencyKey(record, Date.now()); // { stored: false, existing: record }
 */
export function pgIdempotency(pg: Pg): IdempotencyStore {
  return {
    async findIdempotencyKey(scope, key, now) {
      const [r] = await pg<IdempotencyRow[]>`SELECT * FROM idempotency_keys
        WHERE account_id = ${scope.accountId} AND mode = ${scope.mode} AND key = ${key}
        AND expires_at > ${now}`;
      return r ? recordOf(r) : null;
    },
    async putIdempotencyKey(r, now) {
      return pg.begin(async (tx) => {
        // On a conflict the existing row stays locked to this transaction, replaced or not.
        const stored = await tx`INSERT INTO idempotency_keys (account_id, mode, key,
          request_hash, session_id, status, body, created_at, expires_at)
          VALUES (${r.accountId}, ${r.mode}, ${r.key}, ${r.requestHash}, ${r.sessionId},
          ${r.status}, ${r.body}, ${r.createdAt}, ${r.expiresAt})
          ON CONFLICT (account_id, mode, key) DO UPDATE SET request_hash = excluded.request_hash,
          session_id = excluded.session_id, status = excluded.status, body = excluded.body,
          created_at = excluded.created_at, expires_at = excluded.expires_at
          WHERE idempotency_keys.expires_at <= ${now} RETURNING 1`;
        if (stored.length > 0) return { stored: true as const };
        const [existing] = await tx<IdempotencyRow[]>`SELECT * FROM idempotency_keys
          WHERE account_id = ${r.accountId} AND mode = ${r.mode} AND key = ${r.key}`;
        if (!existing) throw new Error(`idempotency key ${r.key} vanished while it was put`);
        return { stored: false as const, existing: recordOf(existing) };
      });
    },
    async dropIdempotencyKey(scope, key, sessionId) {
      await pg`DELETE FROM idempotency_keys WHERE account_id = ${scope.accountId}
        AND mode = ${scope.mode} AND key = ${key} AND session_id = ${sessionId}`;
    },
    async purgeIdempotencyKeys(now, limit) {
      const done = await pg`DELETE FROM idempotency_keys WHERE (account_id, mode, key) IN
        (SELECT account_id, mode, key FROM idempotency_keys WHERE expires_at <= ${now}
        LIMIT ${limit})`;
      return done.count;
    },
  };
}
