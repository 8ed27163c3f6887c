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
];
