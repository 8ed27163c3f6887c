/**
 * The `MediaService` over SQLite records and a `MediaStore` for the bytes.
 */
import type { Database } from 'better-sqlite3';
import { systemClock, type Clock } from '../clock';
import { newId } from '../ids';
import { runMigrations } from '../store/migrations';
import type { Mode } from '../store/types';
import { sqliteMediaForget } from './forget';
import { mediaKeyFor } from './keys';
import { MEDIA_MIGRATIONS } from './migrations';
import { checkMediaUrl, signMediaUrl } from './signing';
import {
  MEDIA_URL_TTL_MS,
  type MediaKind,
  type MediaRecord,
  type MediaService,
  type MediaStore,
} from './types';

export interface MediaServiceOptions {
  /** The better-sqlite3 handle of the store (`openSqliteStore(…).db`). */
  db: Database;
  store: MediaStore;
  /** The signing key (`loadOrCreateMediaSecret(dataDir)`). */
  secret: Uint8Array | string;
  /** This service's public base URL; signed URLs start with it. */
  publicUrl: string;
  clock?: Clock;
}

interface MediaRow {
  id: string;
  session_id: string;
  account_id: string;
  mode: Mode;
  kind: MediaKind;
  content_type: string;
  size: number;
  storage_key: string;
  created_at: number;
}

const toRecord = (r: MediaRow): MediaRecord => ({
  id: r.id,
  sessionId: r.session_id,
  accountId: r.account_id,
  mode: r.mode,
  kind: r.kind,
  contentType: r.content_type,
  size: r.size,
  createdAt: r.created_at,
});

const MEDIA_KINDS: readonly MediaKind[] = [
  'user_photo',
  'screenshot',
  'document_photo',
  'user_video',
  'frame',
];

/**
 * Media records in the store's SQLite file, bytes in `store`, URLs signed with `secret`.
 *
 * @example
 * const media = createMediaService({
 *   db: store.db,
 *   store: createFsMediaStore(join(dataDir, 'media')),
 *   secret: loadOrCreateMediaSecret(dataDir),
 *   publicUrl: 'https://idv.example',
 * });
 * const rec = await media.save({ sessionId, accountId, mode: 'live', kind: 'user_photo',
 *   contentType: 'image/jpeg', bytes });
 * media.signedUrl(rec.id).url; // 'https://idv.example/media/med_…?expires=…&sig=…'
 */
export function createMediaService(options: MediaServiceOptions): MediaService {
  const { db, store, secret, publicUrl } = options;
  const clock = options.clock ?? systemClock;
  if (typeof secret === 'string' ? secret.length === 0 : secret.byteLength === 0) {
    throw new Error('the media signing secret is empty');
  }
  // The store may have been opened before this module registered its migration.
  runMigrations(db, [...MEDIA_MIGRATIONS]);

  const s = {
    insert: db.prepare(`INSERT INTO media (id, session_id, account_id, mode, kind, content_type,
      size, storage_key, created_at) VALUES (@id, @session_id, @account_id, @mode, @kind,
      @content_type, @size, @storage_key, @created_at)`),
    get: db.prepare('SELECT * FROM media WHERE id = ?'),
    queued: db
      .prepare('SELECT storage_key FROM media_deletions ORDER BY queued_at LIMIT ?')
      .pluck(),
    // Keys carry their record's id: a queued key is never saved again.
    dequeue: db.prepare('DELETE FROM media_deletions WHERE storage_key = ?'),
  };
  const forget = sqliteMediaForget(db);
  const row = (id: string) => s.get.get(id) as MediaRow | undefined;

  return {
    async save(input) {
      if (!MEDIA_KINDS.includes(input.kind)) throw new Error(`unknown media kind ${input.kind}`);
      if (!input.contentType) throw new Error('a media object needs a content type');
      const id = newId('med');
      const r: MediaRow = {
        id,
        session_id: input.sessionId,
        account_id: input.accountId,
        mode: input.mode,
        kind: input.kind,
        content_type: input.contentType,
        size: input.bytes.byteLength,
        storage_key: mediaKeyFor(input.sessionId, id, input.contentType),
        created_at: clock.now(),
      };
      await store.put(r.storage_key, input.bytes, r.content_type);
      try {
        s.insert.run(r);
      } catch (err) {
        // No record, so no bytes either: nothing half-written is left behind.
        await store.delete(r.storage_key).catch(() => undefined);
        throw err;
      }
      return toRecord(r);
    },

    async get(id) {
      const r = row(id);
      return r ? toRecord(r) : null;
    },

    async read(id) {
      const r = row(id);
      if (!r) return null;
      const object = await store.get(r.storage_key);
      return object ? { record: toRecord(r), bytes: object.bytes } : null;
    },

    signedUrl(id) {
      const expires = clock.now() + MEDIA_URL_TTL_MS;
      return { url: signMediaUrl({ secret, publicUrl, id, expires }), expires };
    },

    verify(id, expires, sig) {
      return checkMediaUrl(secret, id, expires, sig, clock.now());
    },

    async deleteForSession(sessionId) {
      // Records first (every URL answers 404 at once), bytes after the commit.
      const n = db.transaction(() => forget.forgetSession(sessionId, clock.now()))();
      if (n > 0) while ((await this.purgeDeleted(500)) === 500);
      return n;
    },

    async purgeDeleted(limit = 500) {
      const keys = s.queued.all(limit) as string[];
      for (const key of keys) {
        await store.delete(key);
        s.dequeue.run(key);
      }
      return keys.length;
    },
  };
}
