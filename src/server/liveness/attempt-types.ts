/**
 * Liveness attempts and their frames as the service sees them, and the store's interface: SQLite
 * answers at once (`attempt-store.ts`), PostgreSQL later (`pg-attempt-store.ts`). An attempt holds
 * what the server decided before the page saw anything (the challenges, when they were issued,
 * when they expire); a frame holds the page's labels, the server's receive time, the media id of
 * its bytes and, once the worker has looked at it, the analysis.
 */
import type { AttemptRetry } from '../../core/api';
import type { FlowPosition } from '../../core/flow';
import type { Challenge } from '../../core/liveness';
import type { FrameFailure } from '../face-analysis/analyzer';
import type { JobQueue } from '../jobs/queue';
import type { Mode } from '../store/types';
import type { AttemptEntry } from './attempt-verdict';
import type { LivenessFrame } from './decide-liveness';

type Awaitable<T> = T | Promise<T>;

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

/** A job a write queues in its own transaction (the frame's analysis, the decision). */
export interface AttemptJob {
  kind: string;
  payload: unknown;
}

/**
 * The job queue in the attempts' database, as a worker and the tests use it: SQLite's answers at
 * once, PostgreSQL's later.
 */
export type AttemptJobQueue = {
  [K in keyof JobQueue]: (...args: Parameters<JobQueue[K]>) => Awaitable<ReturnType<JobQueue[K]>>;
};

/** The limits of `start`: starts of a node, and attempts judged. */
export interface StartLimits {
  maxStarts: number;
  maxAttempts: number;
}

/** The decision written on an attempt. */
export interface AttemptDecision {
  outcome: string;
  inconclusiveReason: string | null;
  position: FlowPosition;
  summary: AttemptEntry;
  retry: AttemptRetry | null;
}

export interface AttemptStore {
  /**
   * The job queue of the attempts' database: `addFrame` and `finish` queue their jobs there in
   * their own transaction, and the liveness worker claims them from it.
   */
  readonly jobs: AttemptJobQueue;
  /**
   * Opens an attempt for a node, replacing the one still capturing; refused when the node has had
   * `maxStarts` starts or `maxAttempts` judged attempts already, or one is being analysed.
   * `attempt` is the new attempt's number among the judged ones (replaced ones do not count).
   */
  start(
    a: NewAttempt,
    limits: StartLimits,
  ): Awaitable<{ ok: true; attempt: number } | { ok: false; reason: 'exhausted' | 'finished' }>;
  get(id: string): Awaitable<AttemptRecord | null>;
  /**
   * Adds a frame and queues `job(seq)` in the same transaction. A frame the attempt already holds
   * (the same page time `t`: the page re-sent it after its first request timed out, which the
   * server may still have stored) is not added again: `duplicate`, with the count as it stands.
   */
  addFrame(
    frame: Omit<FrameRecord, 'seq' | 'analysis'>,
    now: number,
    job: (seq: number) => AttemptJob,
  ): Awaitable<
    { ok: true; received: number; duplicate?: true } | { ok: false; reason: AttemptRefusal }
  >;
  /** Ends the capture and queues `job` in the same transaction. */
  finish(
    id: string,
    how: { ended: AttemptEnd; cameraUnavailable: boolean },
    now: number,
    job: AttemptJob,
  ): Awaitable<{ ok: true } | { ok: false; reason: AttemptRefusal }>;
  /** Attempts still capturing whose time has run out, soonest expired first. */
  listExpired(now: number, limit: number): Awaitable<AttemptRecord[]>;
  frames(attemptId: string): Awaitable<FrameRecord[]>;
  frame(attemptId: string, seq: number): Awaitable<FrameRecord | null>;
  setAnalysis(
    attemptId: string,
    seq: number,
    analysis: LivenessFrame | FrameFailure,
  ): Awaitable<void>;
  /**
   * Keeps the media a decision saved, unless some are kept already: of two deciders (a lease run
   * out), the second reads the first's back and the report names one set.
   */
  setDecisionMedia(id: string, media: DecisionMedia): Awaitable<void>;
  /** Writes the decision, once: an attempt decided already keeps its first one. */
  decided(id: string, d: AttemptDecision, now: number): Awaitable<void>;
  /** A node's attempts, in the order they were started. */
  attemptsOf(sessionId: string, nodeId: string): Awaitable<AttemptRecord[]>;
}
