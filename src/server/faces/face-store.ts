/**
 * Face tables in the store's SQLite file:
 * - `face_media_embeddings`: the embedding of a stored image (user photo, document photo, video
 *   frame), so an image is analysed once whatever asks for it;
 * - `face_known`: the known users of recognition, one row per verified session with a
 *   `clientReferenceId` and a user photo, always read by (account, mode);
 * - `face_enroll_pending`: sessions that completed verified and wait to be added, noted by a
 *   trigger in the same transaction as the session's status change, so no ending is missed
 *   whoever ends the session.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { Migration } from '../store/migrations';
import type { Mode } from '../store/types';
import { fromBlob, toBlob } from './embedding-bytes';

export const FACE_MIGRATIONS: readonly Migration[] = [
  {
    id: 'faces_0001_init',
    up: (db) =>
      db.exec(`
        CREATE TABLE face_media_embeddings (
          media_id TEXT PRIMARY KEY,
          -- Float32 values; NULL when the image holds no usable face.
          embedding BLOB,
          created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE face_known (
          session_id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL,
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          client_reference_id TEXT NOT NULL,
          media_id TEXT NOT NULL,
          embedding BLOB NOT NULL,
          created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX face_known_scope ON face_known (account_id, mode);
        CREATE TABLE face_enroll_pending (
          session_id TEXT PRIMARY KEY,
          noted_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TRIGGER face_enroll_on_complete AFTER INSERT ON events
        WHEN NEW.type = 'session.status'
        BEGIN
          INSERT OR IGNORE INTO face_enroll_pending (session_id, noted_at)
          SELECT id, NEW.created_at FROM sessions
          WHERE id = NEW.session_id AND status = 'complete'
            AND client_reference_id IS NOT NULL
            AND json_extract(report, '$.isVerified') = 1;
        END;
      `),
  },
  {
    // On the change of status itself rather than on its outbox event, which every create also
    // appends (see analyses_0002_end_on_status_change).
    id: 'faces_0002_enroll_on_status_change',
    up: (db) =>
      db.exec(`
        DROP TRIGGER IF EXISTS face_enroll_on_complete;
        CREATE TRIGGER face_enroll_on_complete AFTER UPDATE OF status ON sessions
        WHEN NEW.status = 'complete' AND OLD.status <> 'complete'
          AND NEW.client_reference_id IS NOT NULL
          AND json_extract(NEW.report, '$.isVerified') = 1
        BEGIN
          INSERT OR IGNORE INTO face_enroll_pending (session_id, noted_at)
          VALUES (NEW.id, COALESCE(NEW.finished_at, NEW.last_activity_at));
        END;
      `),
  },
];

/** One known user of recognition. */
export interface KnownFace {
  sessionId: string;
  clientReferenceId: string;
  mediaId: string;
  embedding: Float32Array;
}

/**
 * The face tables, SQLite's (below) or PostgreSQL's (`pg-face-store.ts`, shared by instances:
 * recognition searches every known user whichever instance enrolled them). Every method may be a
 * round trip, so every one answers with a promise.
 */
export interface FaceStore {
  /** The cached embedding of a media record: undefined when never computed, null for no face. */
  mediaEmbedding(mediaId: string): Promise<Float32Array | null | undefined>;
  setMediaEmbedding(
    mediaId: string,
    embedding: readonly number[] | null,
    now: number,
  ): Promise<void>;
  /** The latest media id of that kind in a session, if any. */
  latestMedia(sessionId: string, kind: string): Promise<string | null>;
  /** The session's sampled video frames, latest first (the analyses' `video_frames` table). */
  videoFrames(sessionId: string): Promise<{ mediaId: string; analysis: string | null }[]>;
  known(accountId: string, mode: Mode): Promise<KnownFace[]>;
  addKnown(
    row: { sessionId: string; accountId: string; mode: Mode; clientReferenceId: string },
    mediaId: string,
    embedding: readonly number[],
    now: number,
  ): Promise<void>;
  /** Up to `limit` sessions waiting to be enrolled, oldest first. */
  pending(limit: number): Promise<string[]>;
  donePending(sessionId: string): Promise<void>;
  /** Forgets the cached embeddings of these media (their records are deleted: docs/lifecycle.md). */
  forgetMedia(mediaIds: readonly string[]): Promise<void>;
  /** Removes a session from the known users and the enrolment queue (an erasure). */
  forgetSession(sessionId: string): Promise<void>;
}

/**
 * The SQLite face tables' part of an erasure or a retention, synchronous so that it runs inside
 * the caller's transaction (`src/server/lifecycle/`).
 *
 * @example
 * db.transaction(() => sqliteFaceForget(db).forgetSession('sess_1'))();
 */
export function sqliteFaceForget(db: Database): {
  forgetMedia(mediaIds: readonly string[]): void;
  forgetSession(sessionId: string): void;
} {
  const s = {
    embedding: db.prepare('DELETE FROM face_media_embeddings WHERE media_id = ?'),
    known: db.prepare('DELETE FROM face_known WHERE session_id = ?'),
    pending: db.prepare('DELETE FROM face_enroll_pending WHERE session_id = ?'),
  };
  return {
    forgetMedia(mediaIds) {
      for (const id of mediaIds) s.embedding.run(id);
    },
    forgetSession(sessionId) {
      s.known.run(sessionId);
      s.pending.run(sessionId);
    },
  };
}

/**
 * The face tables over a better-sqlite3 handle (the migrations must have run).
 *
 * @example
 * const faces = sqliteFaceStore(store.db);
 * (await faces.known('acc_1', 'live')).length;
 */
export function sqliteFaceStore(db: Database): FaceStore {
  const s = {
    getEmb: db.prepare('SELECT embedding FROM face_media_embeddings WHERE media_id = ?'),
    setEmb: db.prepare(
      `INSERT OR REPLACE INTO face_media_embeddings (media_id, embedding, created_at)
       VALUES (?, ?, ?)`,
    ),
    latest: db.prepare(
      `SELECT id FROM media WHERE session_id = ? AND kind = ?
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    ),
    known: db.prepare(
      `SELECT session_id, client_reference_id, media_id, embedding FROM face_known
       WHERE account_id = ? AND mode = ?`,
    ),
    addKnown: db.prepare(
      `INSERT OR REPLACE INTO face_known (session_id, account_id, mode, client_reference_id,
       media_id, embedding, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    pending: db.prepare('SELECT session_id FROM face_enroll_pending ORDER BY noted_at LIMIT ?'),
    donePending: db.prepare('DELETE FROM face_enroll_pending WHERE session_id = ?'),
    hasVideoFrames: db.prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'video_frames'",
    ),
  };
  let videoFrames: Statement | null = null;
  const forget = sqliteFaceForget(db);
  return {
    async mediaEmbedding(mediaId) {
      const row = s.getEmb.get(mediaId) as { embedding: Buffer | null } | undefined;
      if (!row) return undefined;
      return row.embedding ? fromBlob(row.embedding) : null;
    },
    async setMediaEmbedding(mediaId, embedding, now) {
      s.setEmb.run(mediaId, embedding ? toBlob(embedding) : null, now);
    },
    async latestMedia(sessionId, kind) {
      const row = s.latest.get(sessionId, kind) as { id: string } | undefined;
      return row?.id ?? null;
    },
    async videoFrames(sessionId) {
      // The table belongs to the analyses; without it a session simply has no sampled frames.
      if (!videoFrames) {
        if (!s.hasVideoFrames.get()) return [];
        videoFrames = db.prepare(
          'SELECT media_id, analysis FROM video_frames WHERE session_id = ? ORDER BY seq DESC',
        );
      }
      const rows = videoFrames.all(sessionId) as { media_id: string; analysis: string | null }[];
      return rows.map((r) => ({ mediaId: r.media_id, analysis: r.analysis }));
    },
    async known(accountId, mode) {
      const rows = s.known.all(accountId, mode) as {
        session_id: string;
        client_reference_id: string;
        media_id: string;
        embedding: Buffer;
      }[];
      return rows.map((r) => ({
        sessionId: r.session_id,
        clientReferenceId: r.client_reference_id,
        mediaId: r.media_id,
        embedding: fromBlob(r.embedding),
      }));
    },
    async addKnown(row, mediaId, embedding, now) {
      s.addKnown.run(
        row.sessionId,
        row.accountId,
        row.mode,
        row.clientReferenceId,
        mediaId,
        toBlob(embedding),
        now,
      );
    },
    async pending(limit) {
      return (s.pending.all(limit) as { session_id: string }[]).map((r) => r.session_id);
    },
    async donePending(sessionId) {
      s.donePending.run(sessionId);
    },
    async forgetMedia(mediaIds) {
      forget.forgetMedia(mediaIds);
    },
    async forgetSession(sessionId) {
      forget.forgetSession(sessionId);
    },
  };
}
