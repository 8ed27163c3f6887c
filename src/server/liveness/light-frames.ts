/**
 * Which frames of an attempt get the description model (docs/liveness.md, "Light `between`
 * frames"). The description (embedding, age, gender) is about 60 % of a frame's analysis, and of
 * all the checks only the same-person check and the best frame read it. The `between` frames of an
 * attempt are analysed without it: the presentation-attack checks (mesh, cues, antispoof and
 * liveness scores), the face count, the flat-motion rule and the blink read everything they read
 * before. When the decision rests on such a frame (it met a challenge, it blinked, or it is the
 * best frame), that frame is analysed in full and the attempt decided again, so every frame the
 * decision rests on is compared with the best frame as before. Every frame of an attempt without
 * challenges is read with the iris model (`AnalyzeOptions.eyes`): its decision needs a blink.
 */
import type { AnalyzeOptions, FrameFailure } from '../face-analysis/analyzer';
import type { LivenessDecision, LivenessFrame } from './decide-liveness';

/** A stored frame analysis; `light` when the description model did not run on it. */
export type StoredFrame = LivenessFrame & { light?: boolean };

/**
 * Rounds of "describe the frames the decision rests on, decide again". The first describes the
 * best frame (its embedding is the reference: without it the decision stops at the same-person
 * check, before the challenges) and, without challenges, the frame that blinked (read before that
 * check); the second the challenges' frames; the third, for a failure, every other light frame;
 * the fourth is spare. Describing a frame changes no pose, box or score, so the
 * frames picked do not change between rounds.
 */
export const DESCRIBE_ROUNDS = 4;

/**
 * The analysis a frame gets when the decision comes to rest on it: in full, and, for an attempt
 * without challenges, with the iris model as all its frames (its decision needs a blink, read from
 * the eyelids: a frame described without it would read its eyes differently).
 *
 * @example
 * describedAnalysisFor([]); // { eyes: true }
 * describedAnalysisFor(['turnLeft']); // {}
 */
export function describedAnalysisFor(challenges: readonly unknown[]): AnalyzeOptions {
  return challenges.length === 0 ? { eyes: true } : {};
}

/**
 * The analysis a frame of an attempt gets when it arrives: `between` frames without the
 * description model.
 *
 * @example
 * analysisFor(['turnLeft'], 'between'); // { withoutDescription: true }
 * analysisFor([], 'between'); // { eyes: true, withoutDescription: true }: a face_scan's watch
 */
export function analysisFor(
  challenges: readonly unknown[],
  role: 'baseline' | 'challenge' | 'between',
): AnalyzeOptions {
  const full = describedAnalysisFor(challenges);
  return role === 'between' ? { ...full, withoutDescription: true } : full;
}

/**
 * The light frames to analyse in full before the decision is final; empty when there is none.
 * A pass: the frames it rests on (the best frame, the frame that met each challenge, the frame
 * that blinked), so that each is compared with the best frame; on an idle server each description
 * is a full analysis between `finish` and the decision. A failure: every light frame, so that its
 * reason is the true one (a person who changed among the `between` frames is `personChanged`,
 * checked before the challenges, not the challenge the newcomer then missed).
 *
 * @example
 * const todo = undescribedEvidence(decision, frames.map((f) => f.analysis));
 * for (const i of todo) await describe(i);
 */
export function undescribedEvidence(
  decision: Pick<LivenessDecision, 'outcome' | 'report'>,
  analyses: readonly (StoredFrame | FrameFailure | null)[],
): number[] {
  const r = decision.report;
  const isLight = (i: number) => {
    const a = analyses[i];
    return a != null && !('error' in a) && a.light === true;
  };
  const rests = new Set<number>();
  if (r.bestFrameIndex !== null) rests.add(r.bestFrameIndex);
  for (const c of r.challenges) if (c.met && c.frameIndex !== null) rests.add(c.frameIndex);
  // Without challenges the frame that blinked is what the pass rests on: compared with the best
  // frame, it is the same person's blink.
  if (r.blink?.frameIndex != null) rests.add(r.blink.frameIndex);
  const first = [...rests].filter(isLight).sort((a, b) => a - b);
  // A light best frame alone fails the same-person check: a failure is final only once what a
  // pass would rest on is described.
  if (first.length > 0 || decision.outcome === 'livenessDetected') return first;
  return analyses.map((_, i) => i).filter(isLight);
}

/**
 * What a light analysis of the same bytes holds (the description's fields cleared, `light` set):
 * the simulations of `npm run bench -- liveness` start from full analyses, as the server does
 * not; human-analyzer.test.ts checks that the analyzer gives exactly this.
 *
 * @example
 * lightOf(full).faces[0].embedding; // []
 */
export function lightOf(frame: LivenessFrame): StoredFrame {
  return {
    ...frame,
    light: true,
    faces: frame.faces.map((f) => ({
      ...f,
      embedding: [],
      age: 0,
      gender: 'unknown',
      genderScore: 0,
    })),
  };
}
