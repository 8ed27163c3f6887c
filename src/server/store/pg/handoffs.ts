import { SESSION_COLUMNS, type SessionRow } from '../rows';
import type { HandoffClaimOutcome, HandoffRecord, HandoffStore } from '../types';
import type { Pg } from './client';
import type { PgSessionRows } from './sessions';

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
 * The links that move a session to a phone (`handoffs`) over PostgreSQL. An offer and a claim
 * each lock the session's row first, so concurrent claims of one link (two phones, two instances)
 * are served in turn, and the conditional update lets exactly one through.
 *
 * @example
 * const handoffs = pgHandoffs(pg, sessions.rows);
 * await handoffs.claimHandoff({ codeHash, now, token: { hash, expiresAt } }); // { ok: true, session }
 */
export function pgHandoffs(pg: Pg, sessions: PgSessionRows): HandoffStore {
  return {
    async offerHandoff(o) {
      return pg.begin(async (tx) => {
        const [r] = await tx<Pick<SessionRow, 'status'>[]>`SELECT status FROM sessions
          WHERE id = ${o.sessionId} FOR UPDATE`;
        if (!r || finished(r)) return 'finished' as const;
        await tx`UPDATE handoffs SET revoked_at = ${o.createdAt} WHERE session_id = ${o.sessionId}
          AND claimed_at IS NULL AND revoked_at IS NULL`;
        await tx`INSERT INTO handoffs (code_hash, session_id, created_at, expires_at)
          VALUES (${o.codeHash}, ${o.sessionId}, ${o.createdAt}, ${o.expiresAt})`;
        return 'ok' as const;
      });
    },
    async latestHandoff(sessionId) {
      // Of two made in one millisecond, the one not replaced is the newer.
      const [r] = await pg<HandoffRow[]>`SELECT * FROM handoffs WHERE session_id = ${sessionId}
        ORDER BY created_at DESC, (revoked_at IS NULL) DESC LIMIT 1`;
      return r ? handoffOf(r) : null;
    },
    async claimHandoff(input) {
      return pg.begin(async (tx): Promise<HandoffClaimOutcome> => {
        const [link] = await tx<HandoffRow[]>`SELECT * FROM handoffs
          WHERE code_hash = ${input.codeHash}`;
        if (!link) return { ok: false, reason: 'invalid' };
        const [row] = await tx.unsafe<SessionRow[]>(
          `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1 FOR UPDATE`,
          [link.session_id],
          { prepare: true },
        );
        // Read again under the session's lock: another claim may have passed meanwhile.
        const [h] = await tx<
          HandoffRow[]
        >`SELECT * FROM handoffs WHERE code_hash = ${input.codeHash}`;
        if (!h) return { ok: false, reason: 'invalid' };
        if (h.claimed_at !== null) return { ok: false, reason: 'used' };
        // Replaced by a newer link, or past its time: either way the user needs the newer one.
        if (h.revoked_at !== null || h.expires_at <= input.now) {
          return { ok: false, reason: 'expired' };
        }
        if (!row || finished(row)) return { ok: false, reason: 'finished' };
        const taken = await tx`UPDATE handoffs SET claimed_at = ${input.now}
          WHERE code_hash = ${input.codeHash} AND claimed_at IS NULL AND revoked_at IS NULL
          AND expires_at > ${input.now}`;
        if (taken.count !== 1) return { ok: false, reason: 'used' };
        await tx`UPDATE client_tokens SET moved_at = ${input.now}
          WHERE session_id = ${h.session_id} AND moved_at IS NULL`;
        await tx`INSERT INTO client_tokens (hash, session_id, created_at, expires_at)
          VALUES (${input.token.hash}, ${h.session_id}, ${input.now}, ${input.token.expiresAt})`;
        const [session] = await sessions.records(tx, [row]);
        return session ? { ok: true, session } : { ok: false, reason: 'invalid' };
      });
    },
  };
}
