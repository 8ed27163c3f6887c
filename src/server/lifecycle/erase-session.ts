/**
 * Erasing one session, every feature's part of it in one transaction (docs/lifecycle.md): the
 * `idv sessions erase` command, `POST /sessions/:id/erase` and the session retention share it,
 * on SQLite (`sqliteLifecycle`) and on PostgreSQL (`pgLifecycle`).
 */
import type { Clock } from '../clock';
import { endIncomplete } from '../flow/runtime';
import type { MediaService } from '../media/types';
import type { EraseOutcome, Scope } from '../store/types';
import type { LifecycleStore } from './lifecycle-store';

export interface SessionEraser {
  /** Erases the session of `scope`: `not_found` when it has none of that id. */
  erase(scope: Scope, sessionId: string): Promise<EraseOutcome>;
}

export interface SessionEraserDeps {
  /** The database's part: the core's and the features' rows, in one transaction. */
  lifecycle: Pick<LifecycleStore, 'eraseSession'>;
  /** Whose bytes go after the commit. */
  media: Pick<MediaService, 'purgeDeleted'>;
  clock: Clock;
}

/**
 * The eraser over a database's lifecycle store. What goes: the session's media (records in
 * the transaction, bytes right after), its liveness attempts and frames, its video frames and
 * analysis state, its face-index entry and cached embeddings, and what the store's own
 * `eraseSession` removes (tokens, codes, hand-offs, idempotent answers, the report).
 *
 * @example
 * const eraser = createSessionEraser({ lifecycle: sqliteLifecycle({ store, db }), media, clock });
 * await eraser.erase({ accountId, mode: 'live' }, 'sess_…'); // { ok: true, session: <tombstone>, erased: true }
 */
export function createSessionEraser(deps: SessionEraserDeps): SessionEraser {
  const { clock } = deps;
  return {
    async erase(scope, sessionId) {
      const now = clock.now();
      const outcome = await deps.lifecycle.eraseSession({
        scope,
        sessionId,
        now,
        // The integrator stopped it: a page still open finds it ended.
        end: (s) => endIncomplete(s, now, 'stopped'),
      });
      if (!outcome.ok) return outcome;
      while ((await deps.media.purgeDeleted(500)) === 500);
      return outcome;
    },
  };
}
