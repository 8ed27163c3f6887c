import type { AnalyzedFace, FrameAnalysis } from './analyzer';

/** Faces under this detector score are not used for matching (as in the liveness decision). */
export const MIN_MATCH_FACE_SCORE = 0.6;

/** Which faces of a frame may be its main one. */
export interface FaceFilter {
  /** The lowest detector score taken. */
  minScore: number;
  /** Only faces that carry an embedding (what a comparison needs). */
  withEmbedding: boolean;
}

/** For matching: a confident face with an embedding. */
export const MATCHABLE_FACE: FaceFilter = { minScore: MIN_MATCH_FACE_SCORE, withEmbedding: true };

/** Any face: what the post-session analyses describe (age, spoof scores, the person on video). */
export const ANY_FACE: FaceFilter = { minScore: -Infinity, withEmbedding: false };

/**
 * The face a frame is about: among the faces `filter` takes, the one with the largest box (the
 * person nearest the camera; a reference photo or a document may show a smaller second face, a
 * passer-by or a ghost image). Null when there is none.
 *
 * @example
 * const face = mainFace(await analyzer.analyze(bytes));
 * face?.embedding.length; // 1024
 * mainFace({ width: 640, height: 480, brightness: 100, ms: 1, faces: [] }, ANY_FACE); // null
 */
export function mainFace(
  frame: Pick<FrameAnalysis, 'faces'>,
  filter: FaceFilter = MATCHABLE_FACE,
): AnalyzedFace | null {
  let best: AnalyzedFace | null = null;
  for (const f of frame.faces) {
    if (f.score < filter.minScore || (filter.withEmbedding && f.embedding.length === 0)) continue;
    if (!best || f.box.width * f.box.height > best.box.width * best.box.height) best = f;
  }
  return best;
}
