import type { AnalyzedFace, FrameAnalysis } from '../analysis/face-analyzer';

/** Faces under this detector score are not used for matching (as in the liveness decision). */
export const MIN_MATCH_FACE_SCORE = 0.6;

/**
 * The face an image is about: among the faces scored at least `minScore` and carrying an
 * embedding, the one with the largest box (a reference photo or a document may show a smaller
 * second face, a passer-by or a ghost image). Null when there is none.
 *
 * @example
 * const face = mainFace(await analyzer.analyze(bytes));
 * face?.embedding.length; // 1024
 */
export function mainFace(
  frame: Pick<FrameAnalysis, 'faces'>,
  minScore = MIN_MATCH_FACE_SCORE,
): AnalyzedFace | null {
  let best: AnalyzedFace | null = null;
  for (const f of frame.faces) {
    if (f.score < minScore || f.embedding.length === 0) continue;
    if (!best || f.box.width * f.box.height > best.box.width * best.box.height) best = f;
  }
  return best;
}
