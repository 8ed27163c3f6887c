/**
 * Deepfake analysis behind an interface. The one that ships is not a dedicated deepfake model:
 * none ships with the packages this project uses. It reads what `human`'s antispoof and liveness
 * models said of the session's frames, and says so in the docs (docs/analyses.md).
 */
import type { FrameAnalysis } from '../face-analysis/analyzer';
import { ANY_FACE, mainFace } from '../face-analysis/main-face';
import { quantile, round2 } from './frames';
import type { DeepfakeVerdict } from './schema';

/** A detector could not give a verdict; `code` becomes `deepfakeDetectionStatus.errorCode`. */
export class DeepfakeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface DeepfakeDetector {
  readonly name: string;
  /**
   * The verdict over the session's analysed frames. Throws `DeepfakeError` when there is nothing
   * to judge; should give up when `signal` aborts (the time limit).
   */
  detect(frames: readonly FrameAnalysis[], signal: AbortSignal): Promise<DeepfakeVerdict>;
}

/** Frames with a face needed before a verdict other than `unknown` is given. */
export const MIN_FACE_FRAMES = 3;
/** At or above: `manipulated`; at or below `1 - MANIPULATED_AT`: `authentic`; between: `unknown`. */
export const MANIPULATED_AT = 0.6;

/**
 * The score and verdict from the antispoof (`real`) and liveness (`live`) scores of each frame's
 * main face: manipulation = 1 − the mean of their medians.
 *
 * @example
 * spoofVerdict(frames); // { verdict: 'authentic', manipulationScore: 0.12 }
 */
export function spoofVerdict(frames: readonly FrameAnalysis[]): DeepfakeVerdict {
  const faces = frames.map((f) => mainFace(f, ANY_FACE)).filter((f) => f !== null);
  if (faces.length === 0) {
    throw new DeepfakeError('no_face', 'no frame of the session held a face');
  }
  const real = quantile(
    faces.map((f) => f.real),
    0.5,
  );
  const live = quantile(
    faces.map((f) => f.live),
    0.5,
  );
  const manipulationScore = round2(Math.min(1, Math.max(0, 1 - (real + live) / 2)));
  const verdict =
    faces.length < MIN_FACE_FRAMES
      ? 'unknown'
      : manipulationScore >= MANIPULATED_AT
        ? 'manipulated'
        : manipulationScore <= 1 - MANIPULATED_AT
          ? 'authentic'
          : 'unknown';
  return { verdict, manipulationScore };
}

/**
 * The detector that ships: antispoof and liveness model scores over the session's frames.
 *
 * @example
 * const verdict = await modelDeepfakeDetector().detect(frames, AbortSignal.timeout(60_000));
 */
export function modelDeepfakeDetector(): DeepfakeDetector {
  return {
    name: 'antispoof+liveness',
    async detect(frames, signal) {
      signal.throwIfAborted();
      return spoofVerdict(frames);
    },
  };
}
