/**
 * Where media records live: one row per stored object, written only once its bytes are in the
 * `MediaStore`. SQLite answers at once, PostgreSQL later; the media service awaits either.
 */
import type { Mode } from '../store/types';
import type { MediaKind, MediaRecord } from './types';

type Awaitable<T> = T | Promise<T>;

/** A media record and where its bytes are in the `MediaStore`. */
export interface StoredMedia extends MediaRecord {
  storageKey: string;
}

export interface MediaRecordStore {
  insert(m: StoredMedia): Awaitable<void>;
  get(id: string): Awaitable<StoredMedia | null>;
  /** A session's records, oldest first (in the order written); only those of `kinds` if given. */
  ofSession(sessionId: string, kinds?: readonly MediaKind[]): Awaitable<StoredMedia[]>;
  /** Removes a session's records in one statement and returns them (for their bytes). */
  deleteSession(sessionId: string): Awaitable<StoredMedia[]>;
  /**
   * Storage keys whose records went (`media_deletions`: an erasure, a retention, frames once
   * decided), the oldest first, for their bytes to be deleted after the commit.
   */
  queuedDeletions(limit: number): Awaitable<string[]>;
  /** Takes a key off that queue once its bytes are gone. */
  deletionDone(storageKey: string): Awaitable<void>;
}

/** The `media` table's row, the same columns on both databases. */
export interface MediaRow {
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

/**
 * A row as the service hands it out.
 *
 * @example
 * toStoredMedia(row).storageKey; // 'sessions/sess_1/med_….jpg'
 */
export const toStoredMedia = (r: MediaRow): StoredMedia => ({
  id: r.id,
  sessionId: r.session_id,
  accountId: r.account_id,
  mode: r.mode,
  kind: r.kind,
  contentType: r.content_type,
  size: r.size,
  createdAt: r.created_at,
  storageKey: r.storage_key,
});

/**
 * The row of a record, named as the `media` table's columns.
 *
 * @example
 * db.prepare('INSERT INTO media … VALUES (@id, …)').run(toMediaRow(m));
 */
export const toMediaRow = (m: StoredMedia): MediaRow => ({
  id: m.id,
  session_id: m.sessionId,
  account_id: m.accountId,
  mode: m.mode,
  kind: m.kind,
  content_type: m.contentType,
  size: m.size,
  storage_key: m.storageKey,
  created_at: m.createdAt,
});
