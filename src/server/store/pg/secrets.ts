import { sameSecret, sessionOfSecret } from '../../ids';
import {
  SECRET_COLUMNS,
  SESSION_COLUMNS,
  secretOf,
  type SecretColumns,
  type SessionRow,
} from '../rows';
import type { ClientTokenRecord, ExchangeOutcome, SecretStore } from '../types';
import type { Pg, PgQuery } from './client';
import type { PgSessionRows } from './sessions';

interface TokenRow {
  hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  moved_at: number | null;
}

type Current = SessionRow & SecretColumns;

const finished = (r: Pick<SessionRow, 'status'>) =>
  r.status === 'complete' || r.status === 'incomplete';

/**
 * Client secrets (the current one in its session's row, replaced ones in `retired_secrets`) and
 * the client tokens they are exchanged for (`client_tokens`), over PostgreSQL. A refresh and an
 * exchange each lock the session's row first (`FOR UPDATE`), so two instances spending one secret
 * are served one after the other: the second finds it used.
 *
 * @example
 * const secrets = pgSecrets(pg, sessions.rows);
 * await secrets.exchangeClientSecret({ secret, now, token, apply });
 */
export function pgSecrets(pg: Pg, sessions: PgSessionRows): SecretStore {
  /** The session whose current client secret this is; its row locked with `lock`. */
  const current = async (
    q: PgQuery,
    secret: string,
    lock: boolean,
  ): Promise<Current | undefined> => {
    const id = sessionOfSecret(secret);
    const where = id === null ? `secret = $1 AND strpos(secret, '.') = 0` : 'id = $1';
    const [r] = await q.unsafe<Current[]>(
      `SELECT ${SESSION_COLUMNS}, ${SECRET_COLUMNS} FROM sessions WHERE ${where}${lock ? ' FOR UPDATE' : ''}`,
      [id ?? secret],
      { prepare: true },
    );
    // The id is public; only the random part is a credential, so it is compared in constant time.
    return r && sameSecret(r.secret, secret) ? r : undefined;
  };

  return {
    async getSessionBySecret(secret) {
      const cur = await current(pg, secret, false);
      const rows: SessionRow[] = cur
        ? [cur]
        : await pg.unsafe<SessionRow[]>(
            `SELECT ${SESSION_COLUMNS} FROM sessions
              WHERE id = (SELECT session_id FROM retired_secrets WHERE secret = $1)`,
            [secret],
            { prepare: true },
          );
      return rows[0] ? ((await sessions.records(pg, rows))[0] ?? null) : null;
    },
    async getLatestClientSecret(sessionId) {
      const [r] = await pg.unsafe<SecretColumns[]>(
        `SELECT id, ${SECRET_COLUMNS} FROM sessions WHERE id = $1`,
        [sessionId],
        { prepare: true },
      );
      return r ? secretOf(r) : null;
    },
    async refreshClientSecret(scope, sessionId, secret, expire) {
      return pg.begin(async (tx) => {
        const r = await sessions.lockInScope(tx, scope, sessionId);
        if (!r) return 'not_found' as const;
        if (finished(r)) return 'finished' as const;
        if (expire) {
          const [session] = await sessions.records(tx, [r]);
          const ended = session ? expire(session) : null;
          if (session && ended) {
            await sessions.update(tx, session, ended, secret.createdAt);
            return 'finished' as const;
          }
        }
        await tx`INSERT INTO retired_secrets (secret, session_id, created_at, expire_at, used_at,
          retired_at) SELECT secret, id, secret_created_at, secret_expire_at, secret_used_at,
          ${secret.createdAt} FROM sessions WHERE id = ${sessionId}`;
        await tx`UPDATE sessions SET secret = ${secret.secret},
          secret_created_at = ${secret.createdAt}, secret_expire_at = ${secret.expireAt},
          secret_used_at = NULL WHERE id = ${sessionId}`;
        await tx`UPDATE client_tokens SET revoked_at = ${secret.createdAt}
          WHERE session_id = ${sessionId} AND revoked_at IS NULL`;
        return 'ok' as const;
      });
    },
    async exchangeClientSecret(input) {
      return pg.begin(async (tx): Promise<ExchangeOutcome> => {
        const cur = await current(tx, input.secret, true);
        if (!cur) {
          const [retired] = await tx<{ used_at: number | null }[]>`SELECT used_at
            FROM retired_secrets WHERE secret = ${input.secret}`;
          if (!retired) return { ok: false, reason: 'invalid' };
          // Replaced by a refresh: dead whether it was used or not.
          return { ok: false, reason: retired.used_at !== null ? 'used' : 'expired' };
        }
        if (cur.secret_used_at !== null) return { ok: false, reason: 'used' };
        if (cur.secret_expire_at <= input.now) return { ok: false, reason: 'expired' };
        const [session] = await sessions.records(tx, [cur]);
        if (!session) return { ok: false, reason: 'invalid' };
        const ended = input.expire?.(session) ?? null;
        if (ended) {
          await sessions.update(tx, session, ended, input.now);
          return { ok: false, reason: 'expired' };
        }
        await tx`UPDATE sessions SET secret_used_at = ${input.now} WHERE id = ${cur.id}`;
        await tx`INSERT INTO client_tokens (hash, session_id, created_at, expires_at)
          VALUES (${input.token.hash}, ${cur.id}, ${input.now}, ${input.token.expiresAt})`;
        const saved = await sessions.update(tx, session, input.apply(session), input.now);
        // The row is locked: nobody else can have moved it.
        return { ok: true, session: saved ?? session };
      });
    },
    async findClientToken(hash) {
      const [r] = await pg<TokenRow[]>`SELECT * FROM client_tokens WHERE hash = ${hash}`;
      return r
        ? {
            hash: r.hash,
            sessionId: r.session_id,
            createdAt: r.created_at,
            expiresAt: r.expires_at,
            revokedAt: r.revoked_at,
            movedAt: r.moved_at,
          }
        : (null as ClientTokenRecord | null);
    },
  };
}
