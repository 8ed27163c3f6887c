import type { Database, Statement } from 'better-sqlite3';
import { SESSION_COLUMNS, type SessionRow } from './rows';
import type { SessionRows } from './sessions';
import type { HandoffClaimInput, HandoffClaimOutcome, HandoffRecord, HandoffStore } from './types';

interface HandoffRow {
  code_hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
  claimed_at: number | null;
  revoked_at: number | null;
}

const handoffOf = (r: HandoffRow): HandoffRecord => ({
  codeHash: r.code_hash,
  sessionId: r.session_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  claimedAt: r.claimed_at,
  revokedAt: r.revoked_at,
});

const finished = (r: Pick<SessionRow, 'status'>) =>
  r.status === 'complete' || r.status === 'incomplete';

/**
 * The links that move a session to a phone (`handoffs`) over one SQLite database. An offer and a
 * claim are each one IMMEDIATE transaction, so concurrent claims of one link (two phones, or two
 * processes) are serialised: the conditional update lets exactly one through. Prepared on first
 * use, like the codes: a database migrated only partly has no `handoffs` table.
 *
 * @example
 * const handoffs = sqliteHandoffs(db, sessions.rows);
 * await handoffs.claimHandoff({ codeHash, now, token: { hash, expiresAt } }); // { ok: true, session }
 */
export function sqliteHandoffs(db: Database, sessions: SessionRows): HandoffStore {
  let statements: HandoffStatements | null = null;
  const h = () => (statements ??= new HandoffStatements(db, sessions));
  return {
    async offerHandoff(offer) {
      return h().offer(offer);
    },
    async latestHandoff(sessionId) {
      return h().latest(sessionId);
    },
    async claimHandoff(input) {
      return h().claim(input);
    },
  };
}

class HandoffStatements {
  private readonly s: Record<
    'status' | 'latest' | 'byHash' | 'revoke' | 'insert' | 'take' | 'move' | 'token' | 'session',
    Statement
  >;
  readonly offer: (offer: Omit<HandoffRecord, 'claimedAt' | 'revokedAt'>) => 'ok' | 'finished';
  readonly claim: (input: HandoffClaimInput) => HandoffClaimOutcome;

  constructor(db: Database, sessions: SessionRows) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      status: p('SELECT status FROM sessions WHERE id = ?'),
      // Of two made in one millisecond, the one not replaced is the newer.
      latest: p(`SELECT * FROM handoffs WHERE session_id = ?
        ORDER BY created_at DESC, revoked_at IS NULL DESC LIMIT 1`),
      byHash: p('SELECT * FROM handoffs WHERE code_hash = ?'),
      revoke: p(`UPDATE handoffs SET revoked_at = ? WHERE session_id = ? AND claimed_at IS NULL
        AND revoked_at IS NULL`),
      insert: p(`INSERT INTO handoffs (code_hash, session_id, created_at, expires_at)
        VALUES (@codeHash, @sessionId, @createdAt, @expiresAt)`),
      // The claim itself: only a link still open passes, whoever asked first.
      take: p(`UPDATE handoffs SET claimed_at = ? WHERE code_hash = ? AND claimed_at IS NULL
        AND revoked_at IS NULL AND expires_at > ?`),
      move: p(`UPDATE client_tokens SET moved_at = ? WHERE session_id = ? AND moved_at IS NULL`),
      token: p(`INSERT INTO client_tokens (hash, session_id, created_at, expires_at)
        VALUES (?, ?, ?, ?)`),
      session: p(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
    };
    const offer = db.transaction((o: Omit<HandoffRecord, 'claimedAt' | 'revokedAt'>) => {
      const r = this.s.status.get(o.sessionId) as Pick<SessionRow, 'status'> | undefined;
      if (!r || finished(r)) return 'finished' as const;
      this.s.revoke.run(o.createdAt, o.sessionId);
      this.s.insert.run(o);
      return 'ok' as const;
    });
    this.offer = (o) => offer.immediate(o);
    const claim = db.transaction((input: HandoffClaimInput): HandoffClaimOutcome => {
      const r = this.s.byHash.get(input.codeHash) as HandoffRow | undefined;
      if (!r) return { ok: false, reason: 'invalid' };
      if (r.claimed_at !== null) return { ok: false, reason: 'used' };
      // Replaced by a newer link, or past its time: either way the user needs the newer one.
      if (r.revoked_at !== null || r.expires_at <= input.now) {
        return { ok: false, reason: 'expired' };
      }
      const row = this.s.session.get(r.session_id) as SessionRow | undefined;
      if (!row || finished(row)) return { ok: false, reason: 'finished' };
      if (this.s.take.run(input.now, input.codeHash, input.now).changes !== 1) {
        return { ok: false, reason: 'used' };
      }
      this.s.move.run(input.now, r.session_id);
      this.s.token.run(input.token.hash, r.session_id, input.now, input.token.expiresAt);
      return { ok: true, session: sessions.record(row) };
    });
    this.claim = (input) => claim.immediate(input);
  }

  latest(sessionId: string): HandoffRecord | null {
    const r = this.s.latest.get(sessionId) as HandoffRow | undefined;
    return r ? handoffOf(r) : null;
  }
}
