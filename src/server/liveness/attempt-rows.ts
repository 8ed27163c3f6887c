/**
 * The rows of the attempts' tables, the same columns on both databases, and how they read.
 */
import type { AttemptRetry } from '../../core/api';
import type { FlowPosition } from '../../core/flow';
import type { Challenge } from '../../core/liveness';
import type { FrameFailure } from '../face-analysis/analyzer';
import type { Mode } from '../store/types';
import type {
  AttemptRecord,
  DecisionMedia,
  FrameRecord,
  StoredAttemptStatus,
} from './attempt-types';
import type { AttemptEntry } from './attempt-verdict';
import type { LivenessFrame } from './decide-liveness';

/** An attempt's row, the same columns on both databases (a boolean is 0/1 on SQLite). */
export interface AttemptRow {
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
  camera_unavailable: number | boolean;
  finished_at: number | null;
  decision_media: string | null;
  outcome: string | null;
  inconclusive_reason: string | null;
  position: string | null;
  decided_at: number | null;
  summary: string | null;
  retry: string | null;
}

/** A frame's row, the same columns on both databases. */
export interface FrameRow {
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

/**
 * An attempt's row as the service reads it (JSON columns parsed).
 *
 * @example
 * toAttempt(db.prepare('SELECT * FROM liveness_attempts WHERE id = ?').get(id)).challenges;
 */
export const toAttempt = (r: AttemptRow): AttemptRecord => ({
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
  cameraUnavailable: r.camera_unavailable === 1 || r.camera_unavailable === true,
  finishedAt: r.finished_at,
  decisionMedia: json<DecisionMedia>(r.decision_media),
  outcome: r.outcome,
  inconclusiveReason: r.inconclusive_reason,
  position: json<FlowPosition>(r.position),
  decidedAt: r.decided_at,
  summary: json<AttemptEntry>(r.summary),
  retry: json<AttemptRetry>(r.retry),
});

/**
 * A frame's row as the service reads it (its analysis parsed).
 *
 * @example
 * toFrame(row).analysis; // null until the worker has looked at it
 */
export const toFrame = (r: FrameRow): FrameRecord => ({
  attemptId: r.attempt_id,
  seq: r.seq,
  role: r.role,
  challengeIndex: r.challenge_index,
  t: r.t,
  receivedAt: r.received_at,
  mediaId: r.media_id,
  analysis: json<LivenessFrame | FrameFailure>(r.analysis),
});
