/**
 * The analyses' rows of one session, deleted inside an erasure's transaction.
 */
import type { Database } from 'better-sqlite3';

/**
 * Over the store's SQLite handle (the analyses migrations must have run).
 *
 * @example
 * sqliteAnalysesForget(store.db).forgetSession('sess_1'); // inside the erasure's transaction
 */
export function sqliteAnalysesForget(db: Database): { forgetSession(sessionId: string): void } {
  const s = {
    frames: db.prepare('DELETE FROM video_frames WHERE session_id = ?'),
    // Its jobs, already queued, find a tombstone and do nothing; none is queued any more.
    state: db.prepare('DELETE FROM session_analyses WHERE session_id = ?'),
  };
  return {
    forgetSession(sessionId) {
      s.frames.run(sessionId);
      s.state.run(sessionId);
    },
  };
}
