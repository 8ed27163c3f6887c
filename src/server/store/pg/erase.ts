/**
 * Erasing a session on PostgreSQL (docs/lifecycle.md), the twin of SQLite's `sqliteErasure`: the
 * core's part (the session row, its tokens, codes, hand-offs and idempotent answers, the
 * `session.erased` event) and the features' parts (`alsoErase`, on the same transaction) are one
 * PostgreSQL transaction: all or nothing, whichever instance runs it.
 */
import { orderedId } from '../../ids';
import { answerExpiryWindow, isErased, SESSION_ROW_TABLES, tombstoneOf } from '../erase';
import { settingsJson } from '../rows';
import type { EraseInput, EraseOutcome, Scope, SessionRecord } from '../types';
import type { Pg, PgTx } from './client';
import { insertEvent } from './events';
import type { PgSessionRows } from './sessions';

export interface PgEraseInput extends Omit<EraseInput, 'alsoErase'> {
  /** The features' rows of the session, deleted on `tx` before the commit; gets the tombstone. */
  alsoErase?: (tx: PgTx, tombstone: SessionRecord) => Promise<void>;
}

/** The core's erasure on PostgreSQL, and the finished sessions a retention may erase. */
export interface PgErasure {
  eraseSession(input: PgEraseInput): Promise<EraseOutcome>;
  listEndedBefore(
    endedBefore: number,
    limit: number,
  ): Promise<{ scope: Scope; sessionId: string }[]>;
}

/**
 * Over a pool whose database holds the core's tables (`session_ends` among them).
 *
 * @example
 * const erasure = pgErasure(pg, sessions.rows);
 * await erasure.eraseSession({ scope, sessionId, now, end: (s) => endIncomplete(s, now, 'stopped') });
 */
export function pgErasure(pg: Pg, rows: PgSessionRows): PgErasure {
  return {
    eraseSession(input) {
      return pg.begin(async (tx): Promise<EraseOutcome> => {
        // Locked to the commit: another instance's erasure or step waits, then sees the tombstone.
        const row = await rows.lockInScope(tx, input.scope, input.sessionId);
        if (!row) return { ok: false, reason: 'not_found' };
        let cur = (await rows.records(tx, [row]))[0]!;
        if (isErased(cur)) return { ok: true, session: cur, erased: false };
        const ended = input.end(cur);
        if (ended !== cur) {
          // The row is locked: nobody else can have moved it.
          cur = (await rows.update(tx, cur, ended, input.now)) ?? cur;
        }
        const tomb = tombstoneOf(cur, input.now);
        const done = await tx`UPDATE sessions SET client_reference_id = NULL,
          search_text = ${cur.id.toLowerCase()}, settings = ${settingsJson(tomb.settings)},
          report = ${JSON.stringify(tomb.report)}, position = ${JSON.stringify(tomb.position)},
          secret_used_at = COALESCE(secret_used_at, ${input.now}), rev = rev + 1
          WHERE id = ${cur.id} AND rev = ${cur.rev} RETURNING id`;
        if (done.length !== 1) throw new Error(`session ${cur.id} changed while it was erased`);
        for (const t of SESSION_ROW_TABLES) {
          await tx`DELETE FROM ${tx(t)} WHERE session_id = ${cur.id}`;
        }
        const { from, to } = answerExpiryWindow(cur.createdAt);
        await tx`DELETE FROM idempotency_keys WHERE expires_at BETWEEN ${from} AND ${to}
          AND account_id = ${cur.accountId} AND mode = ${cur.mode} AND session_id = ${cur.id}`;
        await input.alsoErase?.(tx, tomb);
        const id = input.eventId ?? orderedId('evt', 8);
        const event = { id, type: 'session.erased', createdAt: input.now, sessionId: cur.id };
        await insertEvent(tx, {
          ...event,
          accountId: cur.accountId,
          mode: cur.mode,
          payload: JSON.stringify(event),
        });
        return { ok: true, session: { ...tomb, rev: cur.rev + 1 }, erased: true };
      });
    },
    async listEndedBefore(endedBefore, limit) {
      const found = await pg<{ id: string; account_id: string; mode: 'test' | 'live' }[]>`
        SELECT s.id, s.account_id, s.mode FROM session_ends e JOIN sessions s ON s.id = e.session_id
        WHERE e.ended_at < ${endedBefore} ORDER BY e.ended_at LIMIT ${limit}`;
      return found.map((r) => ({
        scope: { accountId: r.account_id, mode: r.mode },
        sessionId: r.id,
      }));
    },
  };
}
