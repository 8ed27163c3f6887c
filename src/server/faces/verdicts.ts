/**
 * Pure verdicts of the face nodes, from what the server measured. No I/O: the service gathers the
 * embeddings and the liveness decision, these functions say what they mean.
 */
import { cosineSimilarity } from '../face-analysis/similarity';

/** Why a face_scan ends in `error` rather than a comparison. */
export type FaceScanErrorReason =
  | 'cameraUnavailable'
  | 'timeout'
  | 'noFace'
  | 'noReference'
  | 'referenceRefused'
  | 'referenceUnreadable'
  | 'noFaceInReference';

export interface FaceScanGateInput {
  /** How many challenges the server asked (0 unless `requireLivenessChallenge`). */
  challenges: number;
  /** The liveness decision over the capture. */
  liveness: { outcome: string; inconclusiveReason?: string };
  /** The node's `requireAILivenessCheck`: the passive analysis must find a live person. */
  aiLivenessCheck?: boolean;
  /** The capture's frames show a presentation attack (checked with or without challenges). */
  attack: boolean;
  cameraUnavailable: boolean;
  /** The page never finished the capture (the attempt expired). */
  expired: boolean;
  /** Whether the capture has a best frame with one usable face. */
  hasFace: boolean;
}

export type FaceScanGate =
  | { go: true }
  | {
      go: false;
      outcome: 'notPassed';
      reason: 'livenessNotDetected' | 'presentationAttack' | 'aiLivenessCheckFailed' | 'noBlink';
    }
  | { go: false; outcome: 'error'; reason: FaceScanErrorReason };

/**
 * Whether a face_scan capture may be compared with its reference at all: a camera that never
 * worked, a capture never finished (the attempt expired, or without challenges the face never
 * fitted the oval: liveness `timeout`) or without a face is an `error`; a presentation attack is
 * `notPassed` whether challenges were asked or not; anything else but `livenessDetected` is
 * `notPassed` too: `livenessNotDetected` (`aiLivenessCheckFailed` when the node requires the AI
 * liveness check, `requireAILivenessCheck`), or without challenges `noBlink` when all that was
 * missing is the blink. Without challenges that rule is the blink check's: a capture failing an
 * earlier liveness rule (a frame without the face, a second face) never reaches the blink, and
 * compared anyway it would let a still picture through by a frame taken away from it.
 *
 * @example
 * faceScanGate({ challenges: 3, liveness: { outcome: 'inconclusive' }, attack: false, cameraUnavailable: false, expired: false, hasFace: true });
 * // { go: false, outcome: 'notPassed', reason: 'livenessNotDetected' }
 */
export function faceScanGate(i: FaceScanGateInput): FaceScanGate {
  if (i.cameraUnavailable) return { go: false, outcome: 'error', reason: 'cameraUnavailable' };
  if (i.attack) return { go: false, outcome: 'notPassed', reason: 'presentationAttack' };
  if (i.challenges > 0 && i.liveness.outcome !== 'livenessDetected') {
    return { go: false, outcome: 'notPassed', reason: 'livenessNotDetected' };
  }
  const timedOut =
    i.challenges === 0 &&
    i.liveness.outcome === 'inconclusive' &&
    i.liveness.inconclusiveReason === 'timeout';
  if (i.expired || timedOut) return { go: false, outcome: 'error', reason: 'timeout' };
  if (i.aiLivenessCheck && i.liveness.outcome !== 'livenessDetected') {
    return { go: false, outcome: 'notPassed', reason: 'aiLivenessCheckFailed' };
  }
  if (!i.hasFace) return { go: false, outcome: 'error', reason: 'noFace' };
  if (i.liveness.outcome !== 'livenessDetected') {
    const noBlink = i.liveness.inconclusiveReason === 'noBlink';
    return { go: false, outcome: 'notPassed', reason: noBlink ? 'noBlink' : 'livenessNotDetected' };
  }
  return { go: true };
}

export interface Comparison {
  /** Cosine similarity of the two embeddings, rounded to 4 decimals for the report. */
  similarity: number;
  threshold: number;
  same: boolean;
}

/**
 * Compares two embeddings against a threshold (same person at or above it).
 *
 * @example
 * compareEmbeddings([1, 0], [1, 0], 0.55); // { similarity: 1, threshold: 0.55, same: true }
 */
export function compareEmbeddings(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  threshold: number,
): Comparison {
  const raw = cosineSimilarity(a, b);
  return { similarity: Number(raw.toFixed(4)), threshold, same: raw >= threshold };
}

export interface KnownCandidate {
  sessionId: string;
  clientReferenceId: string;
  embedding: ArrayLike<number>;
}

export interface RecognitionMatch<K extends KnownCandidate> {
  /** The most similar known face, when it reaches the threshold. */
  best: (K & { similarity: number }) | null;
  /** The highest similarity seen, matched or not (null when nothing was compared). */
  bestSimilarity: number | null;
  /** How many known faces were compared. */
  compared: number;
}

/**
 * 1:N: the known face most similar to `probe`, if it reaches the threshold; the session itself
 * (`excludeSessionId`) is never a candidate.
 *
 * @example
 * bestKnownMatch(probe, known, 0.55, session.id).best?.clientReferenceId; // 'user-42'
 */
export function bestKnownMatch<K extends KnownCandidate>(
  probe: ArrayLike<number>,
  known: readonly K[],
  threshold: number,
  excludeSessionId?: string,
): RecognitionMatch<K> {
  let best: K | null = null;
  let bestSimilarity = -Infinity;
  let compared = 0;
  for (const k of known) {
    if (k.sessionId === excludeSessionId || k.embedding.length !== probe.length) continue;
    compared++;
    const similarity = cosineSimilarity(probe, k.embedding);
    if (similarity > bestSimilarity) {
      best = k;
      bestSimilarity = similarity;
    }
  }
  const rounded = Number(bestSimilarity.toFixed(4));
  return {
    best: best && bestSimilarity >= threshold ? { ...best, similarity: rounded } : null,
    bestSimilarity: best ? rounded : null,
    compared,
  };
}
