/**
 * Media records in the store's SQLite file (the `media` table of `MEDIA_MIGRATIONS`).
 */
import type { Database } from 'better-sqlite3';
import { runMigrations } from '../store/migrations';
import { MEDIA_MIGRATIONS } from './migrations';
import { toMediaRow, toStoredMedia, type MediaRecordStore, type MediaRow } from './records';

/** `MediaRecordStore` as SQLite answers it: at once. */
export type SqliteMediaRecords = {
  [K in keyof MediaRecordStore]: (
    ...args: Parameters<MediaRecordStore[K]>
  ) => Awaited<ReturnType<MediaRecordStore[K]>>;
};

/**
 * The media records over the store's better-sqlite3 handle; applies `MEDIA_MIGRATIONS` (the store
 * may have been opened with the core's alone).
 *
 * @example
 * const records = sqliteMediaRecords(store.db);
 * records.ofSession('sess_1', ['user_photo']); // [{ id: 'med_…', storageKey: '…', … }]
 */
export function sqliteMediaRecords(db: Database): SqliteMediaRecords {
  runMigrations(db, [...MEDIA_MIGRATIONS]);
  const s = {
    insert: db.prepare(`INSERT INTO media (id, session_id, account_id, mode, kind, content_type,
      size, storage_key, created_at) VALUES (@id, @session_id, @account_id, @mode, @kind,
      @content_type, @size, @storage_key, @created_at)`),
    get: db.prepare('SELECT * FROM media WHERE id = ?'),
    ofSession: db.prepare(`SELECT * FROM media WHERE session_id = @sessionId
      AND (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))
      ORDER BY created_at, rowid`),
    deleteSession: db.prepare('DELETE FROM media WHERE session_id = ? RETURNING *'),
    queued: db
      .prepare('SELECT storage_key FROM media_deletions ORDER BY queued_at LIMIT ?')
      .pluck(),
    // Keys carry their record's id: a queued key is never saved again.
    dequeue: db.prepare('DELETE FROM media_deletions WHERE storage_key = ?'),
  };
  return {
    insert(m) {
      s.insert.run(toMediaRow(m));
    },
    get(id) {
      const r = s.get.get(id) as MediaRow | undefined;
      return r ? toStoredMedia(r) : null;
    },
    ofSession(sessionId, kinds) {
      const rows = s.ofSession.all({
        sessionId,
        kinds: kinds ? JSON.stringify(kinds) : null,
      }) as MediaRow[];
      return rows.map(toStoredMedia);
    },
    deleteSession(sessionId) {
      return (s.deleteSession.all(sessionId) as MediaRow[]).map(toStoredMedia);
    },
    queuedDeletions(limit) {
      return s.queued.all(limit) as string[];
    },
    deletionDone(storageKey) {
      s.dequeue.run(storageKey);
    },
  };
}
