/**
 * Attempts of a camera node (docs/liveness.md, "Attempts"): what one judged attempt means for its
 * node. A pass decides the node; a presentation attack decides it too (never retried into a
 * pass); a failure another try may fix (a challenge not met, too dark, no face…) offers another
 * attempt while the node has some left; anything else, or the last attempt, decides the node with
 * the attempt's own outcome. Pure: the decision itself is `decideLiveness`'s (and, for face_scan,
 * the comparison's); this only reads it.
 */
import type { Challenge, RetryReason } from '../../core/liveness';
import type { FrameAnalysis, FrameFailure } from '../face-analysis/analyzer';
import type { FaceScanDecision } from '../faces/faces';
import { median } from '../face-analysis/similarity';
import {
  DEFAULT_LIVENESS_OPTIONS,
  type LivenessDecision,
  type LivenessOptions,
} from './decide-liveness';
import { MIN_SHARPNESS } from './sharpness';

/** A face centre further than this from the frame's centre (share of each side) is off-centre. */
const OFF_CENTRE = 0.3;
/** A face box closer than this to a frame edge (share of the side) is cut by the frame. */
const EDGE = 0.01;

/** The face_scan reasons that no capture can fix: the reference is the problem. */
const REFERENCE_REASONS = new Set([
  'noReference',
  'referenceUnreadable',
  'referenceRefused',
  'noFaceInReference',
]);

/** Why a node ended on an attempt that failed for good: an attack, no camera, or the kind's own. */
export type FinalReason = 'presentationAttack' | 'cameraUnavailable' | string;

/** One attempt as the node report lists it. */
export interface AttemptEntry {
  /** 1 for the node's first judged attempt. */
  attempt: number;
  attemptId: string;
  /** How the capture ended: `done`, `timeout`, `expired` (never finished), `cameraLost`. */
  ended: string | null;
  /** The attempt's own outcome (the liveness decision's, or for face_scan the comparison's). */
  outcome: string;
  inconclusiveReason?: string;
  /** Why it failed (a retry reason, or what ended the node); null for a pass. */
  reason: RetryReason | FinalReason | null;
  /** Another attempt was offered after this one. */
  retried: boolean;
  challenges: { challenge: Challenge; met: boolean; value: number; needed: number }[];
  scores: LivenessDecision['report']['scores'];
  similarity: LivenessDecision['report']['similarity'];
  /** face_scan: the similarity to the reference, when compared. */
  match?: number;
  /** Without challenges: the eyes' opening over the frames and whether they blinked. */
  blink?: { readings: number; median: number | null; ratio: number | null; blink: boolean | null };
  brightnessMedian: number;
  frames: number;
  durationMs: number;
}

export type AttemptVerdict =
  /** The node ends with this attempt's outcome. */
  | { final: true; reason: RetryReason | FinalReason | null }
  /** The node stays: the user may try again. */
  | {
      final: false;
      reason: RetryReason;
      attemptsLeft: number;
      /** The challenge not met, for `challengeFailed`. */
      challenge?: Challenge;
    };

type Frame = FrameAnalysis | FrameFailure | null;
const readableOf = (frames: readonly Frame[]): FrameAnalysis[] =>
  frames.filter((f): f is FrameAnalysis => f !== null && !('error' in f));

/**
 * Whether finding the reason for this decision may need the frames' sharpness (a failure the
 * frames' quality explains). The service decodes frames only then.
 *
 * @example
 * needsSharpness({ outcome: 'noFace', report }); // true
 */
export function needsSharpness(decision: Pick<LivenessDecision, 'outcome' | 'inconclusiveReason'>) {
  return decision.outcome === 'noFace' || decision.inconclusiveReason === 'poorQuality';
}

/**
 * Why frames of poor quality failed, most specific first: too dark, a face too small, a face
 * off-centre or cut by the frame, blurred, frames without a face; null when none says why.
 *
 * @example
 * qualityProblem(analyses, 22, [12]); // 'tooDark'
 */
export function qualityProblem(
  frames: readonly Frame[],
  brightnessMedian: number,
  sharpness: readonly number[] = [],
  o: Pick<
    LivenessOptions,
    'minBrightness' | 'minFaceScale' | 'minFaceScore'
  > = DEFAULT_LIVENESS_OPTIONS,
): RetryReason | null {
  const readable = readableOf(frames);
  if (readable.length < frames.length / 2) return 'poorQuality';
  if (readable.length > 0 && brightnessMedian < o.minBrightness) return 'tooDark';
  const scale = (f: FrameAnalysis, w: number) => w / Math.min(f.width, f.height);
  const counted = readable.map((f) => f.faces.filter((x) => x.score >= o.minFaceScore));
  const anyFace = readable.some((f) => f.faces.length > 0);
  // A far face scores low: when none counts, the ones seen at all tell its size.
  const sized = counted.some((c) => c.length > 0) ? counted : readable.map((f) => f.faces);
  if (readable.some((f, i) => sized[i]!.some((x) => scale(f, x.box.width) < o.minFaceScale))) {
    return 'faceTooSmall';
  }
  const offCentre = readable.some((f, i) =>
    sized[i]!.some((x) => {
      const cx = (x.box.x + x.box.width / 2) / f.width - 0.5;
      const cy = (x.box.y + x.box.height / 2) / f.height - 0.5;
      const cut =
        x.box.x < EDGE * f.width ||
        x.box.y < EDGE * f.height ||
        x.box.x + x.box.width > (1 - EDGE) * f.width ||
        x.box.y + x.box.height > (1 - EDGE) * f.height;
      return cut || Math.abs(cx) > OFF_CENTRE || Math.abs(cy) > OFF_CENTRE;
    }),
  );
  if (anyFace && offCentre) return 'faceOffCentre';
  if (sharpness.length > 0 && median([...sharpness]) < MIN_SHARPNESS) return 'blur';
  if (counted.some((c) => c.length === 0)) return 'noFace';
  return null;
}

/**
 * What went wrong with the capture, as a reason another attempt may fix, or null when the capture
 * was fine (a pass, an attack, no camera, or a capture that was fine but did not match).
 *
 * @example
 * captureProblem(decision, analyses); // 'challengeFailed'
 */
export function captureProblem(
  decision: LivenessDecision,
  frames: readonly Frame[],
  sharpness: readonly number[] = [],
): RetryReason | null {
  if (decision.outcome === 'noFace') {
    return qualityProblem(frames, decision.report.brightnessMedian, sharpness) ?? 'noFace';
  }
  if (decision.outcome !== 'inconclusive') return null;
  switch (decision.inconclusiveReason) {
    case 'poorQuality':
      return qualityProblem(frames, decision.report.brightnessMedian, sharpness) ?? 'poorQuality';
    case 'multipleFaces':
    case 'challengeFailed':
    case 'timeout':
    case 'personChanged':
    case 'noBlink':
      return decision.inconclusiveReason;
    default:
      return null;
  }
}

export interface VerdictInput {
  decision: LivenessDecision;
  /** For a face_scan node: the comparison's decision on this capture. */
  faceScan: FaceScanDecision | null;
  /** How the capture ended (`cameraLost`: the page lost the camera during it). */
  ended: string | null;
  /** `captureProblem` of this attempt. */
  problem: RetryReason | null;
  /** This attempt's number (1 for the first) and the node's `maxAttempts`. */
  attempt: number;
  maxAttempts: number;
}

/**
 * What a judged attempt means for its node.
 *
 * @example
 * attemptVerdict({ decision, faceScan: null, ended: 'done', problem: 'tooDark', attempt: 1, maxAttempts: 3 });
 * // { final: false, reason: 'tooDark', attemptsLeft: 2 }
 */
export function attemptVerdict(i: VerdictInput): AttemptVerdict {
  const { decision, faceScan } = i;
  const passed = faceScan ? faceScan.outcome === 'passed' : decision.outcome === 'livenessDetected';
  if (passed) return { final: true, reason: null };
  // A presentation attack is never retried into a pass, with or without challenges: whatever else
  // went wrong with the attempt (a timeout, a small face), its classification ends the node.
  if (decision.classification === 'attack' || faceScan?.classification === 'attack') {
    return { final: true, reason: 'presentationAttack' };
  }
  if (decision.inconclusiveReason === 'cameraUnavailable') {
    return { final: true, reason: 'cameraUnavailable' };
  }
  const kindReason = faceScan ? reasonOf(faceScan) : (decision.inconclusiveReason ?? null);
  if (faceScan && REFERENCE_REASONS.has(String(kindReason))) {
    return { final: true, reason: kindReason };
  }
  const reason: RetryReason | null = i.ended === 'cameraLost' ? 'cameraLost' : i.problem;
  if (!reason) return { final: true, reason: kindReason ?? decision.outcome };
  if (i.attempt >= i.maxAttempts) return { final: true, reason };
  const missed =
    reason === 'challengeFailed' ? decision.report.challenges.find((c) => !c.met) : undefined;
  return {
    final: false,
    reason,
    attemptsLeft: i.maxAttempts - i.attempt,
    ...(missed ? { challenge: missed.challenge } : {}),
  };
}

const reasonOf = (d: FaceScanDecision): string | null =>
  typeof d.report['reason'] === 'string' ? d.report['reason'] : null;

/**
 * The attempt as the node report lists it: its outcome, its reason, whether another try followed,
 * and the scores it was judged on.
 *
 * @example
 * attemptEntry({ id: 'att_1', ended: 'done' }, 1, decision, null, verdict);
 */
export function attemptEntry(
  a: { id: string; ended: string | null },
  attempt: number,
  decision: LivenessDecision,
  faceScan: FaceScanDecision | null,
  verdict: AttemptVerdict,
): AttemptEntry {
  const r = decision.report;
  const match = faceScan?.report['similarity'];
  return {
    attempt,
    attemptId: a.id,
    ended: a.ended,
    outcome: faceScan?.outcome ?? decision.outcome,
    ...(!faceScan && decision.inconclusiveReason
      ? { inconclusiveReason: decision.inconclusiveReason }
      : {}),
    reason: verdict.reason,
    retried: !verdict.final,
    challenges: r.challenges.map((c) => ({
      challenge: c.challenge,
      met: c.met,
      value: round(c.value),
      needed: c.needed,
    })),
    scores: r.scores,
    similarity: r.similarity,
    ...(typeof match === 'number' ? { match } : {}),
    ...(r.blink
      ? {
          blink: {
            readings: r.blink.readings,
            median: r.blink.median === null ? null : round(r.blink.median),
            ratio: r.blink.ratio === null ? null : round(r.blink.ratio),
            blink: r.blink.blink,
          },
        }
      : {}),
    brightnessMedian: round(r.brightnessMedian),
    frames: r.frames,
    durationMs: r.durationMs,
  };
}

const round = (v: number) => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : 0);

/**
 * Which frames to read the sharpness of: up to `n` readable ones, spread over the attempt.
 *
 * @example
 * sharpnessSample([a, null, b, c], 2); // [0, 3]
 */
export function sharpnessSample(frames: readonly Frame[], n = 3): number[] {
  const readable = frames.flatMap((f, i) => (f !== null && !('error' in f) ? [i] : []));
  if (readable.length <= n) return readable;
  return Array.from(
    { length: n },
    (_, k) => readable[Math.round((k * (readable.length - 1)) / (n - 1))]!,
  );
}
