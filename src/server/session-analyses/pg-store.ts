/**
 * The analyses' tables on PostgreSQL (`PG_ANALYSES_MIGRATIONS`, `PG_JOB_MIGRATIONS`), shared by
 * every instance and worker: a session's jobs are queued once whoever scans first, and its frames
 * are numbered under a per-session lock.
 */
import { pgJobQueue } from '../jobs/pg-queue';
import type { Pg } from '../store/pg/client';
import { ANALYSES_CHANNEL } from './pg-migrations';
import type { AnalysesStore, VideoFrameRow } from './store';

/** First key of the per-session advisory locks of `addFrame` (the second: the id's hash). */
const FRAME_LOCK = 7_316_010;

interface FrameRow {
  seq: number;
  media_id: string;
  analysis: string | null;
}
const frameOf = (r: FrameRow): VideoFrameRow => ({
  seq: r.seq,
  mediaId: r.media_id,
  analysis: r.analysis,
});

/**
 * The analyses store over a PostgreSQL pool. The `media` table it reads is the media module's.
 *
 * @example
 * const st = pgAnalysesStore(store.pg);
 * await st.ended(100); // [{ sessionId, accountId, status, endedAt }]
 */
export function pgAnalysesStore(pg: Pg): AnalysesStore {
  const queue = pgJobQueue(pg);
  return {
    queue,
    async ended(limit) {
      const rows = await pg<
        { session_id: string; account_id: string; status: string; ended_at: number }[]
      >`SELECT session_id, account_id, status, ended_at FROM session_analyses
        WHERE queued = 0 ORDER BY ended_at, session_id LIMIT ${limit}`;
      return rows.map((r) => ({
        sessionId: r.session_id,
        accountId: r.account_id,
        status: r.status,
        endedAt: r.ended_at,
      }));
    },
    async skip(sessionId) {
      await pg`UPDATE session_analyses SET queued = 2
        WHERE session_id = ${sessionId} AND queued = 0`;
    },
    async queueJobs(sessionId, jobs) {
      return pg.begin(async (tx) => {
        const marked = await tx`UPDATE session_analyses SET queued = 1
          WHERE session_id = ${sessionId} AND queued = 0`;
        if (marked.count !== 1) return false;
        for (const j of jobs) await queue.enqueueIn(tx, j.kind, j.payload, j.runAfter);
        return true;
      });
    },
    async closeVideo(sessionId) {
      await pg`UPDATE session_analyses SET video_done = 1 WHERE session_id = ${sessionId}`;
    },
    async videoClosed(sessionId) {
      const [row] = await pg<{ video_done: number }[]>`SELECT video_done FROM session_analyses
        WHERE session_id = ${sessionId}`;
      return row?.video_done === 1;
    },
    async frameCount(sessionId) {
      const [row] = await pg<{ n: number }[]>`SELECT count(*)::int AS n FROM video_frames
        WHERE session_id = ${sessionId}`;
      return row?.n ?? 0;
    },
    async addFrame(f, max, job) {
      return pg.begin(async (tx) => {
        // Two instances adding frames of one session at once would both count n: one waits.
        await tx`SELECT pg_advisory_xact_lock(${FRAME_LOCK}, hashtext(${f.sessionId}))`;
        const [row] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM video_frames
          WHERE session_id = ${f.sessionId}`;
        const n = row?.n ?? 0;
        if (n >= max) return null;
        await tx`INSERT INTO video_frames (session_id, seq, t, media_id, received_at)
          VALUES (${f.sessionId}, ${n}, ${f.t}, ${f.mediaId}, ${f.receivedAt})`;
        const j = job(n);
        await queue.enqueueIn(tx, j.kind, j.payload, j.runAfter);
        return n + 1;
      });
    },
    async frames(sessionId) {
      const rows = await pg<FrameRow[]>`SELECT seq, media_id, analysis FROM video_frames
        WHERE session_id = ${sessionId} ORDER BY seq`;
      return rows.map(frameOf);
    },
    async frame(sessionId, seq) {
      const [row] = await pg<FrameRow[]>`SELECT seq, media_id, analysis FROM video_frames
        WHERE session_id = ${sessionId} AND seq = ${seq}`;
      return row ? frameOf(row) : null;
    },
    async setFrameAnalysis(sessionId, seq, analysis) {
      await pg`UPDATE video_frames SET analysis = ${analysis}
        WHERE session_id = ${sessionId} AND seq = ${seq}`;
    },
    async hasCaptures(sessionId) {
      // Frame rows too: a decided attempt's frame media are deleted (docs/lifecycle.md).
      const rows = await pg`SELECT 1 FROM media WHERE session_id = ${sessionId}
          AND kind IN ('frame', 'screenshot', 'user_photo')
        UNION ALL SELECT 1 FROM liveness_attempts a JOIN liveness_frames f ON f.attempt_id = a.id
          WHERE a.session_id = ${sessionId}
        UNION ALL SELECT 1 FROM video_frames WHERE session_id = ${sessionId}
        LIMIT 1`;
      return rows.length > 0;
    },
    async stills(sessionId) {
      const rows = await pg<{ id: string }[]>`SELECT id FROM media
        WHERE session_id = ${sessionId} AND kind IN ('user_photo', 'screenshot')
        ORDER BY created_at, seq`;
      return rows.map((r) => r.id);
    },
    async hasVideo(sessionId) {
      const rows = await pg`SELECT 1 FROM media WHERE session_id = ${sessionId}
        AND kind = 'user_video' LIMIT 1`;
      return rows.length > 0;
    },
    async watchEnded(wake) {
      const listening = await pg.listen(ANALYSES_CHANNEL, () => wake());
      return () => listening.unlisten();
    },
  };
}
