/**
 * Pure steps around `decideLiveness`: the evidence of a stored attempt, the final outcome once
 * what the server knows about the attempt's end is added, and which frames become screenshots.
 */
import {
  decideLiveness,
  type InconclusiveReason,
  type LivenessDecision,
  type LivenessEvidence,
  type LivenessFrame,
} from './decide-liveness';
import type { FrameFailure } from '../face-analysis/analyzer';
import type { AttemptRecord, FrameRecord } from './attempt-types';

/** At most this many frames of an attempt are kept as screenshots. */
export const MAX_SCREENSHOTS = 6;

/**
 * The evidence of an attempt as `decideLiveness` takes it: the server's own challenges and times,
 * the page's labels. `receivedAt` is when the capture ended on the server (finish or expiry).
 *
 * @example
 * const evidence = evidenceOf(attempt, frames, Date.now());
 */
export function evidenceOf(
  attempt: AttemptRecord,
  frames: readonly FrameRecord[],
  now: number,
): LivenessEvidence {
  return {
    challenges: attempt.challenges,
    issuedAt: attempt.issuedAt,
    receivedAt: attempt.finishedAt ?? now,
    timeoutSeconds: attempt.timeoutSeconds,
    cameraUnavailable: attempt.cameraUnavailable,
    frames: frames.map((f) => ({
      t: f.t,
      role: f.role,
      ...(f.challengeIndex !== null ? { challengeIndex: f.challengeIndex } : {}),
    })),
  };
}

/**
 * The decision of an attempt whose frames have all been analysed. What the server itself knows
 * about the end can only make it worse: an attempt that was never finished is a `timeout`
 * whatever its frames show, unless they show a presentation attack (an attacker who never
 * finishes still gets `deepfakeDetected`, never a timeout that may be tried again); a page that
 * ran out of time and left a challenge undone gets `timeout` rather than `challengeFailed`.
 *
 * @example
 * const d = decideAttempt(attempt, frames, Date.now());
 * d.outcome; // 'inconclusive'
 */
export function decideAttempt(
  attempt: AttemptRecord,
  frames: readonly FrameRecord[],
  now: number,
): LivenessDecision {
  const results: (LivenessFrame | FrameFailure)[] = frames.map(
    (f) => f.analysis ?? { error: 'not analysed' },
  );
  const evidence = evidenceOf(attempt, frames, now);
  // "No camera" is decided without looking at any frame.
  const decision = attempt.cameraUnavailable
    ? decideLiveness({ ...evidence, frames: [] }, [])
    : decideLiveness(evidence, results);
  const timeout = (): LivenessDecision => ({
    outcome: 'inconclusive',
    inconclusiveReason: 'timeout' satisfies InconclusiveReason,
    classification: 'failure',
    report: decision.report,
  });
  if (attempt.cameraUnavailable || decision.classification === 'attack') return decision;
  if (attempt.ended === 'expired') return timeout();
  if (attempt.ended === 'timeout' && decision.inconclusiveReason === 'challengeFailed') {
    return timeout();
  }
  return decision;
}

/**
 * The frames the decision rests on, in capture order: the first baseline frame, the frame that met
 * (or came closest to) each challenge, and the best frame. Without any, the first frame stands for
 * what the camera saw.
 *
 * @example
 * screenshotIndexes(decision.report, frames); // [0, 3, 6, 9]
 */
export function screenshotIndexes(
  report: LivenessDecision['report'],
  frames: readonly Pick<FrameRecord, 'role'>[],
): number[] {
  if (frames.length === 0) return [];
  const picked = new Set<number>();
  const baseline = frames.findIndex((f) => f.role === 'baseline');
  picked.add(baseline >= 0 ? baseline : 0);
  for (const c of report.challenges) if (c.frameIndex !== null) picked.add(c.frameIndex);
  if (report.bestFrameIndex !== null) picked.add(report.bestFrameIndex);
  return [...picked]
    .filter((i) => i >= 0 && i < frames.length)
    .sort((a, b) => a - b)
    .slice(0, MAX_SCREENSHOTS);
}
