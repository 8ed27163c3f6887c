import type { AttemptRetry } from '../../core/api/liveness';
import type { Challenge } from '../../core/liveness';
import type { Position } from '../api/types';
import { DEFAULT_RUN, type RunOptions } from './captureRun';

/** A liveness attempt the server opened: its id and the challenges it picked, in order. */
export interface OpenAttempt {
  attemptId: string;
  challenges: Challenge[];
  maxFrames: number;
  /** Which attempt of the node this is, and how many the node gives. */
  attempt: number;
  maxAttempts: number;
}

/** How a capture ended on the page: every challenge shown, out of time, or the camera lost. */
export type CaptureEnd = 'done' | 'timeout' | 'cameraLost';

/** What went wrong in a way the user sees: a lost connection (retry) or a refusal. */
export type LivenessProblem = 'network' | 'exhausted' | 'unexpected';

/**
 * Where the liveness screen is. The camera is open from `preparing` until the node is decided (the
 * next attempt goes on with it); each phase with a call to the server (`starting`, `sending`,
 * `analysing`, `noCamera`) runs it once when entered, so a retry is a return to that phase.
 */
export type LivenessPhase =
  /** Camera opening, detector loading; no attempt asked for yet. */
  | { phase: 'preparing' }
  /** Asking the server for an attempt; `request` tells a late answer from the current one. */
  | { phase: 'starting'; request: number }
  /** The challenges run; each frame is uploaded as it is taken. */
  | { phase: 'capturing'; request: number; attempt: OpenAttempt }
  /** The capture ended: the last uploads go out, then `finish`. */
  | { phase: 'sending'; request: number; attempt: OpenAttempt; ended: CaptureEnd }
  /** The server analyses; the page polls the attempt. */
  | { phase: 'analysing'; request: number; attempt: OpenAttempt }
  /**
   * The server judged the attempt a failure another try may fix: the reason is shown and said,
   * and "Try again" starts the next attempt. The node is still current.
   */
  | { phase: 'retry'; request: number; attempt: OpenAttempt; retry: AttemptRetry }
  /** No usable camera: the server is told (`cameraUnavailable`), which ends the node. */
  | { phase: 'noCamera'; request: number; attempt?: OpenAttempt }
  /** The server decided (or the session moved on): the page follows `position`. */
  | { phase: 'decided'; position: Position }
  | { phase: 'problem'; problem: LivenessProblem; retry: LivenessPhase };

export type LivenessEvent =
  /** The camera is live and the detector loaded (again, after a camera switch or retry). */
  | { type: 'READY' }
  | { type: 'STARTED'; request: number; attempt: OpenAttempt }
  | { type: 'CAPTURE_DONE'; attemptId: string; ended: CaptureEnd }
  | { type: 'FINISHED'; attemptId: string; status: 'capturing' | 'analysing' | 'decided' }
  /** The attempt was decided without deciding the node: another may be tried. */
  | { type: 'RETRY_OFFERED'; attemptId: string; retry: AttemptRetry }
  /** The user asked for the next attempt. */
  | { type: 'TRY_AGAIN' }
  | { type: 'DECIDED'; position: Position }
  | { type: 'NO_CAMERA' }
  | { type: 'FAILED'; problem: LivenessProblem }
  | { type: 'RETRY' };

export const INITIAL_LIVENESS: LivenessPhase = { phase: 'preparing' };

const requestOf = (s: LivenessPhase): number =>
  s.phase === 'preparing' || s.phase === 'decided' || s.phase === 'problem' ? 0 : s.request;

/**
 * The liveness screen's state, one event at a time. Answers that belong to an attempt the page
 * has left (a camera switch started a new one) are ignored, as is anything after the decision.
 *
 * @example
 * let s = INITIAL_LIVENESS;
 * s = livenessStep(s, { type: 'READY' }); // { phase: 'starting', request: 1 }
 */
export function livenessStep(state: LivenessPhase, event: LivenessEvent): LivenessPhase {
  if (state.phase === 'decided') return state;
  switch (event.type) {
    case 'READY':
      // A camera that comes (back) on during the challenges is a new camera: the frames so far
      // came from another one, so a new attempt begins. Once the capture is over it changes
      // nothing; while an attempt is being asked for, that one will do.
      if (state.phase === 'preparing' || state.phase === 'capturing') {
        return { phase: 'starting', request: requestOf(state) + 1 };
      }
      return state;
    case 'STARTED':
      if (state.phase === 'starting' && state.request === event.request) {
        return { phase: 'capturing', request: state.request, attempt: event.attempt };
      }
      if (state.phase === 'noCamera' && state.request === event.request && !state.attempt) {
        return { ...state, attempt: event.attempt };
      }
      return state;
    case 'CAPTURE_DONE':
      if (state.phase === 'capturing' && state.attempt.attemptId === event.attemptId) {
        return {
          phase: 'sending',
          request: state.request,
          attempt: state.attempt,
          ended: event.ended,
        };
      }
      return state;
    case 'FINISHED':
      // `decided` comes with a position through DECIDED; a finish that found the attempt still
      // capturing (it should not) is polled like an analysing one.
      if (state.phase === 'sending' && state.attempt.attemptId === event.attemptId) {
        return { phase: 'analysing', request: state.request, attempt: state.attempt };
      }
      return state;
    case 'RETRY_OFFERED':
      if (
        (state.phase === 'sending' || state.phase === 'analysing') &&
        state.attempt.attemptId === event.attemptId
      ) {
        return {
          phase: 'retry',
          request: state.request,
          attempt: state.attempt,
          retry: event.retry,
        };
      }
      return state;
    case 'TRY_AGAIN':
      if (state.phase !== 'retry') return state;
      return { phase: 'starting', request: state.request + 1 };
    case 'DECIDED':
      return { phase: 'decided', position: event.position };
    case 'NO_CAMERA':
      if (state.phase === 'sending' || state.phase === 'analysing' || state.phase === 'noCamera') {
        return state;
      }
      return {
        phase: 'noCamera',
        request: requestOf(state) + 1,
        ...(state.phase === 'capturing' ? { attempt: state.attempt } : {}),
      };
    case 'FAILED': {
      if (state.phase === 'problem') return state;
      return { phase: 'problem', problem: event.problem, retry: retryOf(state, event.problem) };
    }
    case 'RETRY':
      if (state.phase !== 'problem' || state.problem === 'exhausted') return state;
      // A retried call is a new request: a late answer to the failed one must not count.
      return renumber(state.retry);
  }
}

function renumber(s: LivenessPhase): LivenessPhase {
  if (s.phase === 'preparing' || s.phase === 'decided' || s.phase === 'problem') return s;
  return { ...s, request: s.request + 1 };
}

/**
 * Where a retry goes. A lost connection tries the same step again. Anything else starts over
 * with a new attempt at once (the camera is still open). No camera is told again as it was.
 */
function retryOf(
  state: Exclude<LivenessPhase, { phase: 'problem' | 'decided' }>,
  problem: LivenessProblem,
): LivenessPhase {
  if (problem === 'network') return state;
  if (state.phase === 'noCamera') return { phase: 'noCamera', request: state.request + 1 };
  return { phase: 'starting', request: requestOf(state) + 1 };
}

/**
 * Whether the camera (and `LivenessCapture`) is on in this state: from the start until the node
 * is decided, so that another attempt goes on with the same camera (no second question, no
 * blank preview); off once there is no camera to use.
 *
 * @example
 * cameraOn({ phase: 'analysing', request: 1, attempt }); // true: another attempt may follow
 */
export function cameraOn(state: LivenessPhase): boolean {
  if (state.phase === 'problem') return state.retry.phase !== 'noCamera';
  return state.phase !== 'noCamera' && state.phase !== 'decided';
}

/**
 * The capture's limits for one attempt, so that every frame it may take fits the server's
 * `maxFrames`: the `between` frames give way first, the baseline and challenge frames never.
 * Without challenges the frames after the baseline are the watch's (the blink): they give way
 * only after the aligning frames.
 *
 * @example
 * runBudget(24, 3).maxBetween; // 6: 1 baseline + 3 aligning + 3 × 4 challenge frames + 6
 * runBudget(24, 0).maxWatch; // 15: 1 baseline + 3 aligning + 15
 */
export function runBudget(
  maxFrames: number,
  challenges: number,
  base: Partial<RunOptions> = {},
): Pick<RunOptions, 'maxBetween' | 'maxAligning' | 'maxCandidates' | 'maxWatch'> {
  const o = { ...DEFAULT_RUN, ...base };
  let maxCandidates = o.maxCandidates;
  let maxAligning = o.maxAligning;
  // Only a capture without challenges watches (captureRun's `watching`).
  let maxWatch = challenges === 0 ? o.maxWatch : 0;
  // Per challenge: the frame that meets it, the one at the end of its hold, the candidates.
  const fixed = () => 1 + challenges * (2 + maxCandidates) + maxAligning + maxWatch;
  // Only when even no `between` frame would fit do the aligning and extra challenge frames shrink.
  while (fixed() > maxFrames && maxAligning > 0) maxAligning--;
  while (fixed() > maxFrames && challenges > 0 && maxCandidates > 0) maxCandidates--;
  // The watch takes what is left after the baseline and the aligning frames.
  maxWatch = Math.max(0, Math.min(maxWatch, maxFrames - (fixed() - maxWatch)));
  const maxBetween =
    challenges === 0 ? 0 : Math.max(0, Math.min(o.maxBetween, maxFrames - fixed()));
  return { maxBetween, maxAligning, maxCandidates, maxWatch };
}
