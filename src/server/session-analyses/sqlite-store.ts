/**
 * The analyses' tables in the store's SQLite file (`ANALYSES_MIGRATIONS`, `JOB_MIGRATIONS`).
 */
import type { Database } from 'better-sqlite3';
import { orderedId } from '../ids';
import { sqliteJobQueue } from '../jobs/queue';
import type { AnalysesStore, EndedSession, VideoFrameRow } from './store';

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
 * The analyses store over a better-sqlite3 handle (the migrations must have run). Sessions end in
 * the store's transactions, so `watchEnded` hears those of this connection only.
 *
 * @example
 * const st = sqliteAnalysesStore(store.db);
 * await st.ended(100); // [{ sessionId, accountId, status, endedAt }]
 */
export function sqliteAnalysesStore(db: Database): AnalysesStore {
  const queue = sqliteJobQueue(db);
  const q = {
    ended: db.prepare(
      'SELECT session_id, account_id, status, ended_at FROM session_analyses WHERE queued = 0 LIMIT ?',
    ),
    mark: db.prepare('UPDATE session_analyses SET queued = ? WHERE session_id = ? AND queued = 0'),
    videoDone: db.prepare('SELECT video_done FROM session_analyses WHERE session_id = ?').pluck(),
    closeVideo: db.prepare('UPDATE session_analyses SET video_done = 1 WHERE session_id = ?'),
    // Frames' bytes go once they are analysed or decided (docs/lifecycle.md); their rows stay.
    captured: db
      .prepare(
        `SELECT 1 FROM media WHERE session_id = @id AND kind IN ('frame', 'screenshot', 'user_photo')
         UNION ALL SELECT 1 FROM liveness_attempts a JOIN liveness_frames f ON f.attempt_id = a.id
           WHERE a.session_id = @id
         UNION ALL SELECT 1 FROM video_frames WHERE session_id = @id
         LIMIT 1`,
      )
      .pluck(),
    stills: db
      .prepare(
        `SELECT id FROM media WHERE session_id = ? AND kind IN ('user_photo', 'screenshot')
         ORDER BY created_at`,
      )
      .pluck(),
    hasVideo: db
      .prepare(`SELECT 1 FROM media WHERE session_id = ? AND kind = 'user_video' LIMIT 1`)
      .pluck(),
    frameCount: db.prepare('SELECT count(*) FROM video_frames WHERE session_id = ?').pluck(),
    addFrame: db.prepare(`INSERT INTO video_frames (session_id, seq, t, media_id, received_at)
      VALUES (?, ?, ?, ?, ?)`),
    frames: db.prepare(
      'SELECT seq, media_id, analysis FROM video_frames WHERE session_id = ? ORDER BY seq',
    ),
    frame: db.prepare(
      'SELECT seq, media_id, analysis FROM video_frames WHERE session_id = ? AND seq = ?',
    ),
    setFrame: db.prepare('UPDATE video_frames SET analysis = ? WHERE session_id = ? AND seq = ?'),
  };
  const queueJobs = db.transaction(
    (sessionId: string, jobs: Parameters<AnalysesStore['queueJobs']>[1]) => {
      if (q.mark.run(1, sessionId).changes !== 1) return false;
      for (const j of jobs) queue.enqueue(j.kind, j.payload, j.runAfter);
      return true;
    },
  );
  const addFrame = db.transaction(
    (...[f, max, job]: Parameters<AnalysesStore['addFrame']>): number | null => {
      const n = q.frameCount.get(f.sessionId) as number;
      if (n >= max) return null;
      q.addFrame.run(f.sessionId, n, f.t, f.mediaId, f.receivedAt);
      const j = job(n);
      queue.enqueue(j.kind, j.payload, j.runAfter);
      return n + 1;
    },
  );
  return {
    queue: {
      claim: (...a) => queue.claim(...a),
      complete: (job) => queue.complete(job),
      renew: (...a) => queue.renew(...a),
      fail: (...a) => queue.fail(...a),
      pendingCount: async () => queue.pendingCount(),
    },
    async ended(limit) {
      const rows = q.ended.all(limit) as {
        session_id: string;
        account_id: string;
        status: string;
        ended_at: number;
      }[];
      return rows.map((r): EndedSession => ({
        sessionId: r.session_id,
        accountId: r.account_id,
        status: r.status,
        endedAt: r.ended_at,
      }));
    },
    async skip(sessionId) {
      q.mark.run(2, sessionId);
    },
    async queueJobs(sessionId, jobs) {
      return queueJobs(sessionId, jobs);
    },
    async closeVideo(sessionId) {
      q.closeVideo.run(sessionId);
    },
    async videoClosed(sessionId) {
      return q.videoDone.get(sessionId) === 1;
    },
    async frameCount(sessionId) {
      return q.frameCount.get(sessionId) as number;
    },
    async addFrame(frame, max, job) {
      return addFrame(frame, max, job);
    },
    async frames(sessionId) {
      return (q.frames.all(sessionId) as FrameRow[]).map(frameOf);
    },
    async frame(sessionId, seq) {
      const row = q.frame.get(sessionId, seq) as FrameRow | undefined;
      return row ? frameOf(row) : null;
    },
    async setFrameAnalysis(sessionId, seq, analysis) {
      q.setFrame.run(analysis, sessionId, seq);
    },
    async hasCaptures(sessionId) {
      return q.captured.get({ id: sessionId }) !== undefined;
    },
    async stills(sessionId) {
      return q.stills.all(sessionId) as string[];
    },
    async hasVideo(sessionId) {
      return q.hasVideo.get(sessionId) !== undefined;
    },
    async watchEnded(wake) {
      // A function of this connection called by a temporary trigger: sessions end in the store's
      // transactions, and the wake-up comes at once, not at the next poll.
      const name = `analyses_wake_${orderedId('w', 4).replace(/[^a-z0-9_]/gi, '_')}`;
      db.function(name, { deterministic: false }, () => {
        wake();
        return null;
      });
      db.exec(`CREATE TEMP TRIGGER ${name} AFTER INSERT ON main.session_analyses
        BEGIN SELECT ${name}(); END`);
      return async () => {
        if (db.open) db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
      };
    },
  };
}
