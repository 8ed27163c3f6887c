/**
 * The `MediaService` over media records (SQLite or PostgreSQL) and a `MediaStore` for the bytes.
 */
import type { Database } from 'better-sqlite3';
import { systemClock, type Clock } from '../clock';
import { newId } from '../ids';
import { mediaKeyFor } from './keys';
import type { MediaRecordStore, StoredMedia } from './records';
import { checkMediaUrl, signMediaUrl } from './signing';
import { sqliteMediaRecords } from './sqlite-records';
import {
  MEDIA_URL_TTL_MS,
  type MediaKind,
  type MediaRecord,
  type MediaService,
  type MediaStore,
} from './types';

export interface MediaServiceOptions {
  /** Where the records live (`pgMediaRecords(pg)`); without it, `db`'s `media` table. */
  records?: MediaRecordStore;
  /** The better-sqlite3 handle of the store (`openSqliteStore(…).db`), when `records` is not given. */
  db?: Database;
  store: MediaStore;
  /** The signing key (`await loadOrCreateMediaSecret(folderSecrets(dataDir))`). */
  secret: Uint8Array | string;
  /** This service's public base URL; signed URLs start with it. */
  publicUrl: string;
  clock?: Clock;
}

const toRecord = ({ storageKey: _key, ...record }: StoredMedia): MediaRecord => record;

const MEDIA_KINDS: readonly MediaKind[] = [
  'user_photo',
  'screenshot',
  'document_photo',
  'user_video',
  'frame',
];

/**
 * Media records in `records` (or the store's SQLite file), bytes in `store`, URLs signed with
 * `secret`.
 *
 * @example
 * const media = createMediaService({
 *   db: store.db,
 *   store: createFsMediaStore(join(dataDir, 'media')),
 *   secret: await loadOrCreateMediaSecret(folderSecrets(dataDir)),
 *   publicUrl: 'https://idv.example',
 * });
 * const rec = await media.save({ sessionId, accountId, mode: 'live', kind: 'user_photo',
 *   contentType: 'image/jpeg', bytes });
 * media.signedUrl(rec.id).url; // 'https://idv.example/media/med_…?expires=…&sig=…'
 */
export function createMediaService(options: MediaServiceOptions): MediaService {
  const { store, secret, publicUrl } = options;
  const clock = options.clock ?? systemClock;
  if (typeof secret === 'string' ? secret.length === 0 : secret.byteLength === 0) {
    throw new Error('the media signing secret is empty');
  }
  if (!options.records && !options.db) {
    throw new Error('the media service needs its records: `records`, or the SQLite `db`');
  }
  const records = options.records ?? sqliteMediaRecords(options.db!);

  return {
    async save(input) {
      if (!MEDIA_KINDS.includes(input.kind)) throw new Error(`unknown media kind ${input.kind}`);
      if (!input.contentType) throw new Error('a media object needs a content type');
      const id = newId('med');
      const m: StoredMedia = {
        id,
        sessionId: input.sessionId,
        accountId: input.accountId,
        mode: input.mode,
        kind: input.kind,
        contentType: input.contentType,
        size: input.bytes.byteLength,
        createdAt: clock.now(),
        storageKey: mediaKeyFor(input.sessionId, id, input.contentType),
      };
      await store.put(m.storageKey, input.bytes, m.contentType);
      try {
        await records.insert(m);
      } catch (err) {
        // No record, so no bytes either: nothing half-written is left behind.
        await store.delete(m.storageKey).catch(() => undefined);
        throw err;
      }
      return toRecord(m);
    },

    async get(id) {
      const m = await records.get(id);
      return m ? toRecord(m) : null;
    },

    async read(id) {
      const m = await records.get(id);
      if (!m) return null;
      const object = await store.get(m.storageKey);
      return object ? { record: toRecord(m), bytes: object.bytes } : null;
    },

    async list(sessionId, kinds) {
      return (await records.ofSession(sessionId, kinds)).map(toRecord);
    },

    signedUrl(id) {
      const expires = clock.now() + MEDIA_URL_TTL_MS;
      return { url: signMediaUrl({ secret, publicUrl, id, expires }), expires };
    },

    verify(id, expires, sig) {
      return checkMediaUrl(secret, id, expires, sig, clock.now());
    },

    async deleteForSession(sessionId) {
      // Records first: from then on every URL answers 404, and bytes left by a failure below are
      // unreachable rather than half-served.
      const gone = await records.deleteSession(sessionId);
      for (const m of gone) await store.delete(m.storageKey);
      return gone.length;
    },

    async purgeDeleted(limit = 500) {
      // The deletion queue lives beside the records (docs/lifecycle.md).
      const keys = await records.queuedDeletions(limit);
      for (const key of keys) {
        await store.delete(key);
        await records.deletionDone(key);
      }
      return keys.length;
    },
  };
}
