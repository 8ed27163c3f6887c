/**
 * Liveness attempts and their frames in the store's SQLite file. An attempt holds what the server
 * decided before the page saw anything (the challenges, when they were issued, when they expire);
 * a frame holds the page's labels, the server's receive time, the media id of its bytes and, once
 * the worker has looked at it, the analysis.
 */
import type { Database } from 'better-sqlite3';
import type { AttemptRetry } from '../../core/api';
import type { Challenge } from '../../core/liveness';
import type { FrameFailure } from '../face-analysis/analyzer';
import type { LivenessFrame } from './decide-liveness';
import type { FlowPosition } from '../../core/flow';
import type { Migration } from '../store/migrations';
import type { Mode } from '../store/types';
import type { AttemptEntry } from './attempt-verdict';

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

export type StoredAttemptStatus = 'capturing' | 'analysing' | 'decided' | 'replaced';

/** The media a decision saved: screenshots, the user photo and the id of its event. */
export interface DecisionMedia {
  screenshots: string[];
  userPhoto: string | null;
  eventId: string | null;
}

export interface AttemptRecord {
  id: string;
  sessionId: string;
  nodeId: string;
  accountId: string;
  mode: Mode;
  challenges: Challenge[];
  timeoutSeconds: number;
  maxFrames: number;
  issuedAt: number;
  expiresAt: number;
  status: StoredAttemptStatus;
  frameCount: number;
  ended: AttemptEnd | null;
  cameraUnavailable: boolean;
  finishedAt: number | null;
  decisionMedia: DecisionMedia | null;
  outcome: string | null;
  inconclusiveReason: string | null;
  position: FlowPosition | null;
  decidedAt: number | null;
  /** Once decided: the attempt as the node report lists it. */
  summary: AttemptEntry | null;
  /** Once decided without deciding the node: why, and how many attempts are left. */
  retry: AttemptRetry | null;
}

/** How a capture ended: the page's word (`done`, `timeout`, `cameraLost`) or `expired`. */
export type AttemptEnd = 'done' | 'timeout' | 'cameraLost' | 'expired';

export interface FrameRecord {
  attemptId: string;
  seq: number;
  role: 'baseline' | 'challenge' | 'between';
  challengeIndex: number | null;
  t: number;
  receivedAt: number;
  mediaId: string;
  analysis: LivenessFrame | FrameFailure | null;
}

interface AttemptRow {
  id: string;
  session_id: string;
  node_id: string;
  account_id: string;
  mode: Mode;
  challenges: string;
  timeout_seconds: number;
  max_frames: number;
  issued_at: number;
  expires_at: number;
  status: StoredAttemptStatus;
  frame_count: number;
  ended: AttemptRecord['ended'];
  camera_unavailable: number;
  finished_at: number | null;
  decision_media: string | null;
  outcome: string | null;
  inconclusive_reason: string | null;
  position: string | null;
  decided_at: number | null;
  summary: string | null;
  retry: string | null;
}

interface FrameRow {
  attempt_id: string;
  seq: number;
  role: FrameRecord['role'];
  challenge_index: number | null;
  t: number;
  received_at: number;
  media_id: string;
  analysis: string | null;
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

const toAttempt = (r: AttemptRow): AttemptRecord => ({
  id: r.id,
  sessionId: r.session_id,
  nodeId: r.node_id,
  accountId: r.account_id,
  mode: r.mode,
  challenges: JSON.parse(r.challenges) as Challenge[],
  timeoutSeconds: r.timeout_seconds,
  maxFrames: r.max_frames,
  issuedAt: r.issued_at,
  expiresAt: r.expires_at,
  status: r.status,
  frameCount: r.frame_count,
  ended: r.ended,
  cameraUnavailable: r.camera_unavailable === 1,
  finishedAt: r.finished_at,
  decisionMedia: json<DecisionMedia>(r.decision_media),
  outcome: r.outcome,
  inconclusiveReason: r.inconclusive_reason,
  position: json<FlowPosition>(r.position),
  decidedAt: r.decided_at,
  summary: json<AttemptEntry>(r.summary),
  retry: json<AttemptRetry>(r.retry),
});

const toFrame = (r: FrameRow): FrameRecord => ({
  attemptId: r.attempt_id,
  seq: r.seq,
  role: r.role,
  challengeIndex: r.challenge_index,
  t: r.t,
  receivedAt: r.received_at,
  mediaId: r.media_id,
  analysis: json<LivenessFrame | FrameFailure>(r.analysis),
});

export type NewAttempt = Pick<
  AttemptRecord,
  | 'id'
  | 'sessionId'
  | 'nodeId'
  | 'accountId'
  | 'mode'
  | 'challenges'
  | 'timeoutSeconds'
  | 'maxFrames'
  | 'issuedAt'
  | 'expiresAt'
>;

/** Why a write was refused; the caller turns it into the API's error. */
export type AttemptRefusal = 'unknown' | 'finished' | 'expired' | 'too_many_frames' | 'exhausted';

export interface AttemptStore {
  /**
   * Opens an attempt for a node, replacing the one still capturing; refused when the node has had
   * `maxStarts` starts or `maxAttempts` judged attempts already, or one is being analysed.
   * `attempt` is the new attempt's number among the judged ones (replaced ones do not count).
   */
  start(
    a: NewAttempt,
    limits: { maxStarts: number; maxAttempts: number },
  ): { ok: true; attempt: number } | { ok: false; reason: 'exhausted' | 'finished' };
  get(id: string): AttemptRecord | null;
  /** Adds a frame and runs `then` (queueing its job) in the same transaction. */
  addFrame(
    frame: Omit<FrameRecord, 'seq' | 'analysis'>,
    now: number,
    then: (seq: number) => void,
  ): { ok: true; received: number } | { ok: false; reason: AttemptRefusal };
  /** Ends the capture and runs `then` in the same transaction. */
  finish(
    id: string,
    how: { ended: AttemptEnd; cameraUnavailable: boolean },
    now: number,
    then: () => void,
  ): { ok: true } | { ok: false; reason: AttemptRefusal };
  /** Attempts still capturing whose time has run out. */
  listExpired(now: number, limit: number): AttemptRecord[];
  frames(attemptId: string): FrameRecord[];
  frame(attemptId: string, seq: number): FrameRecord | null;
  setAnalysis(attemptId: string, seq: number, analysis: LivenessFrame | FrameFailure): void;
  setDecisionMedia(id: string, media: DecisionMedia): void;
  decided(
    id: string,
    d: {
      outcome: string;
      inconclusiveReason: string | null;
      position: FlowPosition;
      summary: AttemptEntry;
      retry: AttemptRetry | null;
    },
    now: number,
  ): void;
  attemptsOf(sessionId: string, nodeId: string): AttemptRecord[];
  /** Deletes every attempt of a session and their frames (an erasure). Sync. */
  forgetSession(sessionId: string): void;
}

/** Attempts that were judged (finished or expired), not those replaced or still capturing. */
export const judged = (a: Pick<AttemptRecord, 'status'>) =>
  a.status === 'analysing' || a.status === 'decided';

/**
 * The attempt store over the store's better-sqlite3 handle.
 *
 * @example
 * const attempts = sqliteAttemptStore(store.db);
 * attempts.start({ id: 'att_1', sessionId, nodeId: 'live', … }, 5);
 */
export function sqliteAttemptStore(db: Database): AttemptStore {
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
      ORDER BY expires_at LIMIT ?`),
    frames: p('SELECT * FROM liveness_frames WHERE attempt_id = ? ORDER BY seq'),
    frame: p('SELECT * FROM liveness_frames WHERE attempt_id = ? AND seq = ?'),
    setAnalysis: p('UPDATE liveness_frames SET analysis = ? WHERE attempt_id = ? AND seq = ?'),
    setMedia: p('UPDATE liveness_attempts SET decision_media = ? WHERE id = ?'),
    forgetFrames: p(`DELETE FROM liveness_frames
      WHERE attempt_id IN (SELECT id FROM liveness_attempts WHERE session_id = ?)`),
    forgetAttempts: p('DELETE FROM liveness_attempts WHERE session_id = ?'),
    decided:
      p(`UPDATE liveness_attempts SET status = 'decided', outcome = ?, inconclusive_reason = ?,
      position = ?, decided_at = ?, summary = ?, retry = ? WHERE id = ? AND status <> 'decided'`),
  };
  const get = (id: string) => {
    const r = s.get.get(id) as AttemptRow | undefined;
    return r ? toAttempt(r) : null;
  };
  /** Why an attempt takes nothing more, or null when it is still capturing. */
  const closed = (a: AttemptRecord | null, now: number): AttemptRefusal | null => {
    if (!a) return 'unknown';
    if (a.status !== 'capturing') return 'finished';
    if (now >= a.expiresAt) return 'expired';
    return null;
  };

  const start = db.transaction(
    (a: NewAttempt, limits: { maxStarts: number; maxAttempts: number }) => {
      const existing = (s.ofNode.all(a.sessionId, a.nodeId) as AttemptRow[]).map(toAttempt);
      if (existing.some((x) => x.status === 'analysing'))
        return { ok: false, reason: 'finished' } as const;
      const counted = existing.filter(judged).length;
      if (existing.length >= limits.maxStarts || counted >= limits.maxAttempts) {
        return { ok: false, reason: 'exhausted' } as const;
      }
      s.replace.run(a.issuedAt, a.sessionId, a.nodeId);
      s.insert.run({ ...a, challenges: JSON.stringify(a.challenges) });
      return { ok: true, attempt: counted + 1 } as const;
    },
  );

  const addFrame = db.transaction(
    (f: Omit<FrameRecord, 'seq' | 'analysis'>, now: number, then: (seq: number) => void) => {
      const a = get(f.attemptId);
      const why = closed(a, now);
      if (why) return { ok: false, reason: why } as const;
      if (a!.frameCount >= a!.maxFrames) return { ok: false, reason: 'too_many_frames' } as const;
      const seq = a!.frameCount;
      s.insertFrame.run(f.attemptId, seq, f.role, f.challengeIndex, f.t, f.receivedAt, f.mediaId);
      s.bumpFrames.run(f.attemptId);
      then(seq);
      return { ok: true, received: seq + 1 } as const;
    },
  );

  const finish = db.transaction(
    (
      id: string,
      how: { ended: AttemptEnd; cameraUnavailable: boolean },
      now: number,
      then: () => void,
    ) => {
      const a = get(id);
      const why = closed(a, now);
      // An expired attempt may still be closed as expired (by the sweep or a late finish).
      if (why && !(why === 'expired' && how.ended === 'expired'))
        return { ok: false, reason: why } as const;
      s.finish.run(how.ended, how.cameraUnavailable ? 1 : 0, now, id);
      then();
      return { ok: true } as const;
    },
  );

  return {
    start: (a, limits) => start.immediate(a, limits),
    get,
    addFrame: (f, now, then) => addFrame.immediate(f, now, then),
    finish: (id, how, now, then) => finish.immediate(id, how, now, then),
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
    attemptsOf: (sessionId, nodeId) =>
      (s.ofNode.all(sessionId, nodeId) as AttemptRow[]).map(toAttempt),
    forgetSession(sessionId) {
      s.forgetFrames.run(sessionId);
      s.forgetAttempts.run(sessionId);
    },
  };
}
