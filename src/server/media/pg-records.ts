/**
 * Media records in PostgreSQL, for instances sharing one database: the `media` table as SQLite's
 * `media_0001_init` makes it (and `seq`, the order of writing, for its rowid), keys and sort columns
 * comparing bytes (`COLLATE "C"`), times in ms.
 */
import type { Pg } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
import { toMediaRow, toStoredMedia, type MediaRecordStore, type MediaRow } from './records';

export const PG_MEDIA_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_media_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE media (
          id TEXT COLLATE "C" PRIMARY KEY,
          session_id TEXT COLLATE "C" NOT NULL,
          account_id TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          kind TEXT NOT NULL,
          content_type TEXT NOT NULL,
          size BIGINT NOT NULL,
          -- Where the bytes are in the MediaStore; the id alone never reaches the file system.
          storage_key TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          -- The order of writing, as SQLite's rowid: records of one millisecond keep it.
          seq BIGINT GENERATED ALWAYS AS IDENTITY
        );
        CREATE INDEX media_by_session ON media (session_id);
      `);
    },
  },
  {
    // As SQLite's media_0002: bytes whose records are gone, deleted after the commit that
    // removed them (`purgeDeleted`), again if a process died first; the retentions read media by
    // kind and age.
    id: 'pg_media_0002_deletions',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE media_deletions (
          storage_key TEXT COLLATE "C" PRIMARY KEY,
          queued_at BIGINT NOT NULL
        );
        CREATE INDEX media_deletions_queued ON media_deletions (queued_at);
        CREATE INDEX media_by_kind_age ON media (kind, created_at);
      `);
    },
  },
];

/** The columns of `MediaRow` (not `seq`, which only orders). */
const COLUMNS = `id, session_id, account_id, mode, kind, content_type, size, storage_key,
  created_at`;

/** `MediaRecordStore` as PostgreSQL answers it: every result a promise. */
export type PgMediaRecords = {
  [K in keyof MediaRecordStore]: (
    ...args: Parameters<MediaRecordStore[K]>
  ) => Promise<Awaited<ReturnType<MediaRecordStore[K]>>>;
};

/**
 * The media records over a PostgreSQL pool whose database holds `PG_MEDIA_MIGRATIONS`' table.
 *
 * @example
 * const media = createMediaService({ records: pgMediaRecords(pg), store, secret, publicUrl });
 */
export function pgMediaRecords(pg: Pg): PgMediaRecords {
  return {
    async insert(m) {
      const r = toMediaRow(m);
      await pg`INSERT INTO media (id, session_id, account_id, mode, kind, content_type, size,
        storage_key, created_at) VALUES (${r.id}, ${r.session_id}, ${r.account_id}, ${r.mode},
        ${r.kind}, ${r.content_type}, ${r.size}, ${r.storage_key}, ${r.created_at})`;
    },
    async get(id) {
      const [r] = await pg<MediaRow[]>`SELECT ${pg.unsafe(COLUMNS)} FROM media WHERE id = ${id}`;
      return r ? toStoredMedia(r) : null;
    },
    async ofSession(sessionId, kinds) {
      const list = kinds ? [...kinds] : null;
      const rows = await pg<
        MediaRow[]
      >`SELECT ${pg.unsafe(COLUMNS)} FROM media WHERE session_id = ${sessionId}
        AND (${list}::text[] IS NULL OR kind = ANY(${list}::text[]))
        ORDER BY created_at, seq`;
      return rows.map(toStoredMedia);
    },
    async deleteSession(sessionId) {
      const rows = await pg<MediaRow[]>`DELETE FROM media WHERE session_id = ${sessionId}
        RETURNING ${pg.unsafe(COLUMNS)}`;
      return rows.map(toStoredMedia);
    },
    async queuedDeletions(limit) {
      const rows = await pg<{ storage_key: string }[]>`SELECT storage_key FROM media_deletions
        ORDER BY queued_at LIMIT ${limit}`;
      return rows.map((r) => r.storage_key);
    },
    async deletionDone(storageKey) {
      await pg`DELETE FROM media_deletions WHERE storage_key = ${storageKey}`;
    },
  };
}
