/**
 * Liveness attempts and their frames in the store's SQLite file (the interface and what it holds:
 * `attempt-types.ts`).
 */
import type { Database } from 'better-sqlite3';
import { JOB_MIGRATIONS, sqliteJobQueue, type JobQueue } from '../jobs/queue';
import { runMigrations, type Migration } from '../store/migrations';
import { toAttempt, toFrame, type AttemptRow, type FrameRow } from './attempt-rows';
import { finishRefusal, frameRefusal, startRefusal } from './attempt-rules';
import type {
  AttemptEnd,
  AttemptJob,
  AttemptStore,
  FrameRecord,
  NewAttempt,
  StartLimits,
} from './attempt-types';

export const LIVENESS_MIGRATIONS: readonly Migration[] = [
  {
    id: 'liveness_0001_init',
    up: (db) =>
      db.exec(`
        CREATE TABLE liveness_attempts (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL,
          node_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          mode TEXT NOT NULL,
          challenges TEXT NOT NULL,
          timeout_seconds INTEGER NOT NULL,
          max_frames INTEGER NOT NULL,
          issued_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('capturing', 'analysing', 'decided', 'replaced')),
          frame_count INTEGER NOT NULL DEFAULT 0,
          -- 'done' or 'timeout' as the page said; 'expired' when it never finished.
          ended TEXT,
          camera_unavailable INTEGER NOT NULL DEFAULT 0,
          finished_at INTEGER,
          -- Media saved for the decision, kept so that a re-run after a crash saves nothing twice.
          decision_media TEXT,
          outcome TEXT,
          inconclusive_reason TEXT,
          position TEXT,
          decided_at INTEGER
        ) WITHOUT ROWID;
        CREATE INDEX liveness_attempts_node ON liveness_attempts (session_id, node_id);
        CREATE INDEX liveness_attempts_open ON liveness_attempts (expires_at)
          WHERE status = 'capturing';
        CREATE TABLE liveness_frames (
          attempt_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          role TEXT NOT NULL,
          challenge_index INTEGER,
          t REAL NOT NULL,
          received_at INTEGER NOT NULL,
          media_id TEXT NOT NULL,
          -- JSON FrameAnalysis, or { error } for a frame the analyzer could not read; NULL: pending.
          analysis TEXT,
          PRIMARY KEY (attempt_id, seq)
        ) WITHOUT ROWID;
      `),
  },
  {
    // Attempts of a node (docs/liveness.md, "Attempts"): each decided attempt keeps its entry of
    // the node report, and `retry` when it left the node current for another try.
    id: 'liveness_0002_attempt_results',
    up: (db) =>
      db.exec(`
        ALTER TABLE liveness_attempts ADD COLUMN summary TEXT;
        ALTER TABLE liveness_attempts ADD COLUMN retry TEXT;
      `),
  },
];

/** `AttemptStore` as SQLite answers it: at once, over a queue that does too. */
export type SqliteAttemptStore = {
  [K in Exclude<keyof AttemptStore, 'jobs'>]: (
    ...args: Parameters<AttemptStore[K]>
  ) => Awaited<ReturnType<AttemptStore[K]>>;
} & { readonly jobs: JobQueue };

/**
 * A session's attempts and frames deleted inside an erasure's transaction (SQLite, synchronous;
 * docs/lifecycle.md).
 *
 * @example
 * db.transaction(() => sqliteAttemptForget(db).forgetSession('sess_1'))();
 */
export function sqliteAttemptForget(db: Database): { forgetSession(sessionId: string): void } {
  const s = {
    frames: db.prepare(`DELETE FROM liveness_frames
      WHERE attempt_id IN (SELECT id FROM liveness_attempts WHERE session_id = ?)`),
    attempts: db.prepare('DELETE FROM liveness_attempts WHERE session_id = ?'),
  };
  return {
    forgetSession(sessionId) {
      s.frames.run(sessionId);
      s.attempts.run(sessionId);
    },
  };
}

/**
 * The attempt store over the store's better-sqlite3 handle, its jobs in the same file's queue.
 * Applies the jobs' and attempts' migrations (the store may have been opened with the core's
 * alone). Writes that read first run `BEGIN IMMEDIATE`: SQLite's one writer lock serialises them.
 *
 * @example
 * const attempts = sqliteAttemptStore(store.db);
 * attempts.start({ id: 'att_1', sessionId, nodeId: 'live', … }, { maxStarts: 5, maxAttempts: 3 });
 */
export function sqliteAttemptStore(db: Database): SqliteAttemptStore {
  runMigrations(db, [...JOB_MIGRATIONS, ...LIVENESS_MIGRATIONS]);
  const jobs = sqliteJobQueue(db);
  const p = (sql: string) => db.prepare(sql);
  const s = {
    get: p('SELECT * FROM liveness_attempts WHERE id = ?'),
    ofNode: p(
      'SELECT * FROM liveness_attempts WHERE session_id = ? AND node_id = ? ORDER BY issued_at, id',
    ),
    insert: p(`INSERT INTO liveness_attempts (id, session_id, node_id, account_id, mode, challenges,
      timeout_seconds, max_frames, issued_at, expires_at, status)
      VALUES (@id, @sessionId, @nodeId, @accountId, @mode, @challenges, @timeoutSeconds,
      @maxFrames, @issuedAt, @expiresAt, 'capturing')`),
    replace: p(`UPDATE liveness_attempts SET status = 'replaced', finished_at = ?
      WHERE session_id = ? AND node_id = ? AND status = 'capturing'`),
    bumpFrames: p(`UPDATE liveness_attempts SET frame_count = frame_count + 1 WHERE id = ?`),
    insertFrame: p(`INSERT INTO liveness_frames (attempt_id, seq, role, challenge_index, t,
      received_at, media_id) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    finish: p(`UPDATE liveness_attempts SET status = 'analysing', ended = ?, camera_unavailable = ?,
      finished_at = ? WHERE id = ? AND status = 'capturing'`),
    expired: p(`SELECT * FROM liveness_attempts WHERE status = 'capturing' AND expires_at <= ?
      ORDER BY expires_at, id LIMIT ?`),
    frames: p('SELECT * FROM liveness_frames WHERE attempt_id = ? ORDER BY seq'),
    frame: p('SELECT * FROM liveness_frames WHERE attempt_id = ? AND seq = ?'),
    frameAt: p('SELECT 1 FROM liveness_frames WHERE attempt_id = ? AND t = ?').pluck(),
    setAnalysis: p('UPDATE liveness_frames SET analysis = ? WHERE attempt_id = ? AND seq = ?'),
    setMedia: p(
      'UPDATE liveness_attempts SET decision_media = ? WHERE id = ? AND decision_media IS NULL',
    ),
    decided:
      p(`UPDATE liveness_attempts SET status = 'decided', outcome = ?, inconclusive_reason = ?,
      position = ?, decided_at = ?, summary = ?, retry = ? WHERE id = ? AND status <> 'decided'`),
  };
  const get = (id: string) => {
    const r = s.get.get(id) as AttemptRow | undefined;
    return r ? toAttempt(r) : null;
  };
  const ofNode = (sessionId: string, nodeId: string) =>
    (s.ofNode.all(sessionId, nodeId) as AttemptRow[]).map(toAttempt);

  const start = db.transaction((a: NewAttempt, limits: StartLimits) => {
    const checked = startRefusal(ofNode(a.sessionId, a.nodeId), limits);
    if (!checked.ok) return checked;
    s.replace.run(a.issuedAt, a.sessionId, a.nodeId);
    s.insert.run({ ...a, challenges: JSON.stringify(a.challenges) });
    return checked;
  });

  const addFrame = db.transaction(
    (f: Omit<FrameRecord, 'seq' | 'analysis'>, now: number, job: (seq: number) => AttemptJob) => {
      const a = get(f.attemptId);
      if (a && s.frameAt.get(f.attemptId, f.t)) {
        return { ok: true, received: a.frameCount, duplicate: true } as const;
      }
      const why = frameRefusal(a, now);
      if (why || !a) return { ok: false, reason: why ?? 'unknown' } as const;
      const seq = a.frameCount;
      s.insertFrame.run(f.attemptId, seq, f.role, f.challengeIndex, f.t, f.receivedAt, f.mediaId);
      s.bumpFrames.run(f.attemptId);
      const { kind, payload } = job(seq);
      jobs.enqueue(kind, payload, now);
      return { ok: true, received: seq + 1 } as const;
    },
  );

  const finish = db.transaction(
    (
      id: string,
      how: { ended: AttemptEnd; cameraUnavailable: boolean },
      now: number,
      job: AttemptJob,
    ) => {
      const why = finishRefusal(get(id), how.ended, now);
      if (why) return { ok: false, reason: why } as const;
      s.finish.run(how.ended, how.cameraUnavailable ? 1 : 0, now, id);
      jobs.enqueue(job.kind, job.payload, now);
      return { ok: true } as const;
    },
  );

  return {
    jobs,
    start: (a, limits) => start.immediate(a, limits),
    get,
    addFrame: (f, now, job) => addFrame.immediate(f, now, job),
    finish: (id, how, now, job) => finish.immediate(id, how, now, job),
    listExpired: (now, limit) => (s.expired.all(now, limit) as AttemptRow[]).map(toAttempt),
    frames: (id) => (s.frames.all(id) as FrameRow[]).map(toFrame),
    frame: (id, seq) => {
      const r = s.frame.get(id, seq) as FrameRow | undefined;
      return r ? toFrame(r) : null;
    },
    setAnalysis: (id, seq, analysis) => {
      s.setAnalysis.run(JSON.stringify(analysis), id, seq);
    },
    setDecisionMedia: (id, media) => {
      s.setMedia.run(JSON.stringify(media), id);
    },
    decided: (id, d, now) => {
      s.decided.run(
        d.outcome,
        d.inconclusiveReason,
        JSON.stringify(d.position),
        now,
        JSON.stringify(d.summary),
        d.retry ? JSON.stringify(d.retry) : null,
        id,
      );
    },
    attemptsOf: ofNode,
  };
}
