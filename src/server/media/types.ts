/**
 * Media kept for a session (user photo, screenshots, document photos) and the signed download
 * URLs that events and reports carry. Bytes live behind `MediaStore` (a folder today; an
 * S3-compatible bucket fits the same shape), records and URLs behind `MediaService`.
 */
import type { Mode } from '../store/types';

/** Where the bytes live. Keys are opaque, made of `[a-z0-9_./-]`, never starting with `/`. */
export interface MediaStore {
  /** Writes atomically: a reader sees the whole object or none. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
}

export type MediaKind = 'user_photo' | 'screenshot' | 'document_photo' | 'user_video' | 'frame';

export interface MediaRecord {
  id: string;
  sessionId: string;
  accountId: string;
  mode: Mode;
  kind: MediaKind;
  contentType: string;
  /** Bytes, for `Content-Length` and limits. */
  size: number;
  createdAt: number;
}

/** A signed download URL and when it stops working (Unix ms). */
export interface SignedMediaUrl {
  url: string;
  expires: number;
}

/** Lifetime of a signed media URL (spec: 15 minutes). */
export const MEDIA_URL_TTL_MS = 15 * 60 * 1000;

export interface MediaService {
  /** Stores the bytes and their record (the record only once the bytes are written). */
  save(input: {
    sessionId: string;
    accountId: string;
    mode: Mode;
    kind: MediaKind;
    contentType: string;
    bytes: Uint8Array;
  }): Promise<MediaRecord>;
  get(id: string): Promise<MediaRecord | null>;
  /** The bytes of a record, or null when they are gone. */
  read(id: string): Promise<{ record: MediaRecord; bytes: Buffer } | null>;
  /** A session's records, oldest first (in the order written); only those of `kinds` if given. */
  list(sessionId: string, kinds?: readonly MediaKind[]): Promise<MediaRecord[]>;
  /** A URL on this service valid for `MEDIA_URL_TTL_MS` from now (HMAC-signed). */
  signedUrl(id: string): SignedMediaUrl;
  /** Checks a URL's `expires` and `sig` for `id`: ok, or why it is refused. */
  verify(
    id: string,
    expires: string | undefined,
    sig: string | undefined,
  ): 'ok' | 'expired' | 'invalid';
  /** Removes a session's media (records and bytes). */
  deleteForSession(sessionId: string): Promise<number>;
  /**
   * Deletes the bytes whose records went (`media_deletions`, see `sqliteMediaForget`), up to
   * `limit`; returns how many. Safe to run again and from several processes.
   */
  purgeDeleted(limit?: number): Promise<number>;
}
