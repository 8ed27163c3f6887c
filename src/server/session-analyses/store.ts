/**
 * What the analyses keep in the database, behind one interface: SQLite's file
 * (`sqlite-store.ts`) or PostgreSQL shared by instances (`pg-store.ts`). Every method may be a
 * round trip, so every one answers with a promise.
 */
import type { WorkQueue } from '../jobs/queue';

/** A session that ended and whose jobs are not queued yet. */
export interface EndedSession {
  sessionId: string;
  accountId: string;
  status: string;
  endedAt: number;
}

/** A job to queue with a change, in its transaction. */
export interface QueuedJob {
  kind: string;
  payload: unknown;
  runAfter: number;
}

/** One frame sampled while recording; `analysis` is JSON, null until analysed. */
export interface VideoFrameRow {
  seq: number;
  mediaId: string;
  analysis: string | null;
}

/** The queue the analyses' worker takes its jobs from, and its size (tests, the bench). */
export interface AnalysesQueue extends WorkQueue {
  pendingCount(): Promise<number>;
}

export interface AnalysesStore {
  readonly queue: AnalysesQueue;
  /** Up to `limit` ended sessions whose jobs are not queued yet. */
  ended(limit: number): Promise<EndedSession[]>;
  /** The session has nothing to analyse: no scan looks at it again. */
  skip(sessionId: string): Promise<void>;
  /**
   * Marks the session's jobs queued and queues them, in one transaction; false (and nothing
   * queued) when another scan did it first.
   */
  queueJobs(sessionId: string, jobs: readonly QueuedJob[]): Promise<boolean>;
  /** From now on the session's video frames are refused. */
  closeVideo(sessionId: string): Promise<void>;
  videoClosed(sessionId: string): Promise<boolean>;
  frameCount(sessionId: string): Promise<number>;
  /**
   * Adds a frame at the next `seq` with the job `job(seq)` makes, in one transaction, unless the
   * session has `max` frames already; returns how many it has then, or null when full.
   */
  addFrame(
    frame: { sessionId: string; t: number; mediaId: string; receivedAt: number },
    max: number,
    job: (seq: number) => QueuedJob,
  ): Promise<number | null>;
  /** The session's frames in order of `seq`. */
  frames(sessionId: string): Promise<VideoFrameRow[]>;
  frame(sessionId: string, seq: number): Promise<VideoFrameRow | null>;
  setFrameAnalysis(sessionId: string, seq: number, analysis: string): Promise<void>;
  /** Whether the session has any capture (frame, screenshot, user photo) among its media. */
  hasCaptures(sessionId: string): Promise<boolean>;
  /** The ids of its user photos and screenshots, oldest first. */
  stills(sessionId: string): Promise<string[]>;
  hasVideo(sessionId: string): Promise<boolean>;
  /**
   * Calls `wake` soon after sessions end: those of this process on SQLite, of any instance on
   * PostgreSQL. Returns how to stop.
   */
  watchEnded(wake: () => void): Promise<() => Promise<void>>;
}
