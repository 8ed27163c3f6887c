/**
 * The face tables on PostgreSQL, in the shape SQLite's reached after `FACE_MIGRATIONS`: the known
 * users of recognition live in the database every instance shares, so a session enrolled by one
 * instance is recognised by all. As on SQLite, a trigger on the core's `sessions` notes the
 * sessions that complete verified, in the same transaction as the status change.
 */
import type { Pg } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
import { fromBlob, toBlob } from './embedding-bytes';
import type { FaceStore } from './face-store';

export const PG_FACE_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_faces_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE face_media_embeddings (
          media_id TEXT COLLATE "C" PRIMARY KEY,
          -- Float32 values; NULL when the image holds no usable face.
          embedding BYTEA,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE face_known (
          session_id TEXT COLLATE "C" PRIMARY KEY,
          account_id TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          client_reference_id TEXT COLLATE "C" NOT NULL,
          media_id TEXT COLLATE "C" NOT NULL,
          embedding BYTEA NOT NULL,
          created_at BIGINT NOT NULL
        );
        CREATE INDEX face_known_scope ON face_known (account_id, mode);
        CREATE TABLE face_enroll_pending (
          session_id TEXT COLLATE "C" PRIMARY KEY,
          noted_at BIGINT NOT NULL
        );
        CREATE INDEX face_enroll_pending_order ON face_enroll_pending (noted_at);

        CREATE FUNCTION idv_face_enroll_on_complete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO face_enroll_pending (session_id, noted_at)
          VALUES (NEW.id, COALESCE(NEW.finished_at, NEW.last_activity_at))
          ON CONFLICT (session_id) DO NOTHING;
          RETURN NULL;
        END $$;
        CREATE TRIGGER face_enroll_on_complete AFTER UPDATE OF status ON sessions
          FOR EACH ROW
          WHEN (NEW.status = 'complete' AND OLD.status <> 'complete'
            AND NEW.client_reference_id IS NOT NULL
            AND (NEW.report::jsonb -> 'isVerified') = 'true'::jsonb)
          EXECUTE FUNCTION idv_face_enroll_on_complete();
      `);
    },
  },
];

/**
 * The face tables over a PostgreSQL pool (`PG_FACE_MIGRATIONS` applied). The `media` table it
 * reads is the media module's, `video_frames` the analyses'.
 *
 * @example
 * const faces = pgFaceStore(store.pg);
 * (await faces.known('acc_1', 'live')).length;
 */
export function pgFaceStore(pg: Pg): FaceStore {
  let hasVideoFrames: boolean | null = null;
  return {
    async mediaEmbedding(mediaId) {
      const [row] = await pg<{ embedding: Buffer | null }[]>`SELECT embedding
        FROM face_media_embeddings WHERE media_id = ${mediaId}`;
      if (!row) return undefined;
      return row.embedding ? fromBlob(row.embedding) : null;
    },
    async setMediaEmbedding(mediaId, embedding, now) {
      await pg`INSERT INTO face_media_embeddings (media_id, embedding, created_at)
        VALUES (${mediaId}, ${embedding ? toBlob(embedding) : null}, ${now})
        ON CONFLICT (media_id) DO UPDATE SET embedding = excluded.embedding,
        created_at = excluded.created_at`;
    },
    async latestMedia(sessionId, kind) {
      const [row] = await pg<{ id: string }[]>`SELECT id FROM media
        WHERE session_id = ${sessionId} AND kind = ${kind}
        ORDER BY created_at DESC, seq DESC LIMIT 1`;
      return row?.id ?? null;
    },
    async videoFrames(sessionId) {
      // The table belongs to the analyses; without it a session simply has no sampled frames.
      if (hasVideoFrames === null) {
        const [row] = await pg<{ found: boolean }[]>`SELECT
          to_regclass('video_frames') IS NOT NULL AS found`;
        if (!row?.found) return [];
        hasVideoFrames = true;
      }
      const rows = await pg<{ media_id: string; analysis: string | null }[]>`SELECT media_id,
        analysis FROM video_frames WHERE session_id = ${sessionId} ORDER BY seq DESC`;
      return rows.map((r) => ({ mediaId: r.media_id, analysis: r.analysis }));
    },
    async known(accountId, mode) {
      const rows = await pg<
        { session_id: string; client_reference_id: string; media_id: string; embedding: Buffer }[]
      >`SELECT session_id, client_reference_id, media_id, embedding FROM face_known
        WHERE account_id = ${accountId} AND mode = ${mode}`;
      return rows.map((r) => ({
        sessionId: r.session_id,
        clientReferenceId: r.client_reference_id,
        mediaId: r.media_id,
        embedding: fromBlob(r.embedding),
      }));
    },
    async addKnown(row, mediaId, embedding, now) {
      await pg`INSERT INTO face_known (session_id, account_id, mode, client_reference_id,
        media_id, embedding, created_at) VALUES (${row.sessionId}, ${row.accountId}, ${row.mode},
        ${row.clientReferenceId}, ${mediaId}, ${toBlob(embedding)}, ${now})
        ON CONFLICT (session_id) DO UPDATE SET account_id = excluded.account_id,
        mode = excluded.mode, client_reference_id = excluded.client_reference_id,
        media_id = excluded.media_id, embedding = excluded.embedding,
        created_at = excluded.created_at`;
    },
    async pending(limit) {
      const rows = await pg<{ session_id: string }[]>`SELECT session_id FROM face_enroll_pending
        ORDER BY noted_at, session_id LIMIT ${limit}`;
      return rows.map((r) => r.session_id);
    },
    async donePending(sessionId) {
      await pg`DELETE FROM face_enroll_pending WHERE session_id = ${sessionId}`;
    },
    async forgetMedia(mediaIds) {
      if (mediaIds.length === 0) return;
      await pg`DELETE FROM face_media_embeddings WHERE media_id IN ${pg([...mediaIds])}`;
    },
    async forgetSession(sessionId) {
      await pg.begin(async (tx) => {
        await tx`DELETE FROM face_known WHERE session_id = ${sessionId}`;
        await tx`DELETE FROM face_enroll_pending WHERE session_id = ${sessionId}`;
      });
    },
  };
}
