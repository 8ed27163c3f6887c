/**
 * The `media` table: one row per stored object, written only once its bytes are in the store.
 */
import type { Migration } from '../store/migrations';

export const MEDIA_MIGRATIONS: readonly Migration[] = [
  {
    id: 'media_0001_init',
    up(db) {
      db.exec(`
        CREATE TABLE media (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          kind TEXT NOT NULL,
          content_type TEXT NOT NULL,
          size INTEGER NOT NULL,
          -- Where the bytes are in the MediaStore; the id alone never reaches the file system.
          storage_key TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX media_by_session ON media (session_id);
      `);
    },
  },
  {
    // Bytes whose records are gone (an erasure, a retention, frames after their decision): the
    // records are deleted in the caller's transaction and their keys queued here, so a record is
    // never half-deleted; the bytes follow after the commit (`purgeDeleted`), again if a process
    // died first. The retentions read media by kind and age.
    id: 'media_0002_deletions',
    up(db) {
      db.exec(`
        CREATE TABLE media_deletions (
          storage_key TEXT PRIMARY KEY,
          queued_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX media_by_kind_age ON media (kind, created_at);
      `);
    },
  },
];
