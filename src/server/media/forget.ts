/**
 * Deleting media records inside a caller's transaction (an erasure, a retention, frames once
 * decided): each record goes and its bytes' key is queued in `media_deletions`, for
 * `MediaService.purgeDeleted` to remove after the commit.
 */
import type { Database } from 'better-sqlite3';
import type { MediaKind } from './types';

export interface MediaForget {
  /** Deletes the records of these ids and queues their bytes; returns how many went. Sync. */
  forget(ids: readonly string[], now: number): number;
  /** The same for every medium of a session. Sync. */
  forgetSession(sessionId: string, now: number): number;
  /** Ids of `kind` made before `createdBefore`, the oldest first. */
  olderThan(kind: MediaKind, createdBefore: number, limit: number): string[];
  /** The ids of a session's media. */
  ofSession(sessionId: string): string[];
}

/**
 * Over the store's SQLite handle (the media migrations must have run).
 *
 * @example
 * const media = sqliteMediaForget(store.db);
 * db.transaction(() => media.forgetSession('sess_1', Date.now()))();
 */
export function sqliteMediaForget(db: Database): MediaForget {
  const s = {
    queue: db.prepare(`INSERT OR IGNORE INTO media_deletions (storage_key, queued_at)
      SELECT storage_key, ? FROM media WHERE id = ?`),
    delete: db.prepare('DELETE FROM media WHERE id = ?'),
    ofSession: db.prepare('SELECT id FROM media WHERE session_id = ?').pluck(),
    older: db
      .prepare('SELECT id FROM media WHERE kind = ? AND created_at < ? ORDER BY created_at LIMIT ?')
      .pluck(),
  };
  const forget = (ids: readonly string[], now: number) => {
    let n = 0;
    for (const id of ids) {
      s.queue.run(now, id);
      n += s.delete.run(id).changes;
    }
    return n;
  };
  return {
    forget,
    forgetSession: (sessionId, now) => forget(s.ofSession.all(sessionId) as string[], now),
    olderThan: (kind, before, limit) => s.older.all(kind, before, limit) as string[],
    ofSession: (sessionId) => s.ofSession.all(sessionId) as string[],
  };
}
