import type { Database } from 'better-sqlite3';
import { sameSecret, sessionOfSecret } from '../ids';
import {
  SECRET_COLUMNS,
  SESSION_COLUMNS,
  secretOf,
  type SecretColumns,
  type SessionRow,
} from './rows';
import type { SessionRows } from './sessions';
import type { ClientTokenRecord, ExchangeInput, ExchangeOutcome, SecretStore } from './types';

interface TokenRow {
  hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** Absent in a database migrated only up to core_0003 (tests of migrations). */
  moved_at?: number | null;
}

/**
 * Client secrets (the current one in its session's row, replaced ones in `retired_secrets`) and
 * the client tokens they are exchanged for (`client_tokens`), over one SQLite database. Spending a
 * secret, refreshing it and the session change each brings are one IMMEDIATE transaction.
 *
 * @example
 * const secrets = sqliteSecrets(db, sessions.rows);
 * await secrets.exchangeClientSecret({ secret, now, token, apply });
 */
export function sqliteSecrets(db: Database, sessions: SessionRows): SecretStore {
  const s = {
    byId: db.prepare(`SELECT ${SESSION_COLUMNS}, ${SECRET_COLUMNS} FROM sessions WHERE id = ?`),
    // Secrets made before they carried their session's id (core_0002), by their own index.
    legacy: db.prepare(`SELECT ${SESSION_COLUMNS}, ${SECRET_COLUMNS} FROM sessions
      WHERE secret = ? AND instr(secret, '.') = 0`),
    ofSession: db.prepare(`SELECT id, ${SECRET_COLUMNS} FROM sessions WHERE id = ?`),
    sessionOfRetired: db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions
      WHERE id = (SELECT session_id FROM retired_secrets WHERE secret = ?)`),
    retired: db.prepare('SELECT used_at FROM retired_secrets WHERE secret = ?'),
    retire: db.prepare(`INSERT INTO retired_secrets (secret, session_id, created_at, expire_at,
      used_at, retired_at) SELECT secret, id, secret_created_at, secret_expire_at,
      secret_used_at, ? FROM sessions WHERE id = ?`),
    set: db.prepare(`UPDATE sessions SET secret = ?, secret_created_at = ?, secret_expire_at = ?,
      secret_used_at = NULL WHERE id = ?`),
    use: db.prepare(`UPDATE sessions SET secret_used_at = ? WHERE id = ? AND secret = ?
      AND secret_used_at IS NULL`),
    insertToken: db.prepare(`INSERT INTO client_tokens (hash, session_id, created_at, expires_at)
      VALUES (?, ?, ?, ?)`),
    token: db.prepare('SELECT * FROM client_tokens WHERE hash = ?'),
    revokeTokens: db.prepare(`UPDATE client_tokens SET revoked_at = ?
      WHERE session_id = ? AND revoked_at IS NULL`),
  };

  /** The session whose current client secret this is, with the secret's columns. */
  const current = (secret: string): (SessionRow & SecretColumns) | undefined => {
    const id = sessionOfSecret(secret);
    if (id === null) return s.legacy.get(secret) as (SessionRow & SecretColumns) | undefined;
    const r = s.byId.get(id) as (SessionRow & SecretColumns) | undefined;
    // The id is public; only the random part is a credential, so it is compared in constant time.
    return r && sameSecret(r.secret, secret) ? r : undefined;
  };

  const refresh = db.transaction(
    (...[scope, sessionId, secret, expire]: Parameters<SecretStore['refreshClientSecret']>) => {
      const r = sessions.inScope(scope, sessionId);
      if (!r) return 'not_found' as const;
      if (r.status === 'complete' || r.status === 'incomplete') return 'finished' as const;
      sessions.forget(sessionId);
      if (expire) {
        const session = sessions.record(r);
        const ended = expire(session);
        if (ended) {
          sessions.update(session, ended, secret.createdAt);
          return 'finished' as const;
        }
      }
      s.retire.run(secret.createdAt, sessionId);
      s.set.run(secret.secret, secret.createdAt, secret.expireAt, sessionId);
      s.revokeTokens.run(secret.createdAt, sessionId);
      return 'ok' as const;
    },
  );

  const exchange = db.transaction((input: ExchangeInput): ExchangeOutcome => {
    const cur = current(input.secret);
    if (!cur) {
      const retired = s.retired.get(input.secret) as { used_at: number | null } | undefined;
      if (!retired) return { ok: false, reason: 'invalid' };
      // Replaced by a refresh: dead whether it was used or not.
      return { ok: false, reason: retired.used_at !== null ? 'used' : 'expired' };
    }
    if (cur.secret_used_at !== null) return { ok: false, reason: 'used' };
    if (cur.secret_expire_at <= input.now) return { ok: false, reason: 'expired' };
    sessions.forget(cur.id);
    const session = sessions.record(cur);
    const ended = input.expire?.(session) ?? null;
    if (ended) {
      sessions.update(session, ended, input.now);
      return { ok: false, reason: 'expired' };
    }
    if (s.use.run(input.now, cur.id, input.secret).changes === 0) {
      return { ok: false, reason: 'used' };
    }
    s.insertToken.run(input.token.hash, cur.id, input.now, input.token.expiresAt);
    const next = input.apply(session);
    const saved = sessions.update(session, next, input.now);
    // Inside one immediate transaction nobody else can have moved the row.
    return { ok: true, session: saved ?? session };
  });

  return {
    async getSessionBySecret(secret) {
      const r = current(secret) ?? (s.sessionOfRetired.get(secret) as SessionRow | undefined);
      return r ? sessions.record(r) : null;
    },
    async getLatestClientSecret(sessionId) {
      const r = s.ofSession.get(sessionId) as SecretColumns | undefined;
      return r ? secretOf(r) : null;
    },
    async refreshClientSecret(scope, sessionId, secret, expire) {
      return refresh.immediate(scope, sessionId, secret, expire);
    },
    async exchangeClientSecret(input) {
      return exchange.immediate(input);
    },
    async findClientToken(hash) {
      const r = s.token.get(hash) as TokenRow | undefined;
      return r
        ? {
            hash: r.hash,
            sessionId: r.session_id,
            createdAt: r.created_at,
            expiresAt: r.expires_at,
            revokedAt: r.revoked_at,
            movedAt: r.moved_at ?? null,
          }
        : (null as ClientTokenRecord | null);
    },
  };
}
