/**
 * `report.videoAIAnalysis` from the frames the page sampled while it recorded the session.
 */
import { cosineSimilarity } from '../face-analysis/similarity';
import type { FrameAnalysis } from '../face-analysis/analyzer';
import { ANY_FACE, mainFace } from '../face-analysis/main-face';
import { quantile, round2, SAME_PERSON_COSINE } from './frames';
import type { VideoAiAnalysis, VideoCriterion } from './schema';

/** Frames with a face at which a criterion's confidence reaches 1 (20 s of sampling). */
export const FULL_CONFIDENCE_FRAMES = 10;

const confidenceOf = (n: number) => round2(Math.min(1, n / FULL_CONFIDENCE_FRAMES));

/** The embedding most like all the others (the medoid): the person the video is mostly about. */
function medoid(embeddings: readonly number[][]): number[] | null {
  let best: number[] | null = null;
  let bestSum = -Infinity;
  for (const a of embeddings) {
    let sum = 0;
    for (const b of embeddings) sum += cosineSimilarity(a, b);
    if (sum > bestSum) {
      bestSum = sum;
      best = a;
    }
  }
  return best;
}

/**
 * The criteria and overall score over the sampled frames (`video`) and the embeddings of the
 * session's captures (user photo, liveness frames) for the same-person criterion. Each score is
 * 0–1; each confidence grows with the frames that held a face, and is 0 when a criterion had
 * nothing to go on. The overall score is the confidence-weighted mean.
 *
 * @example
 * videoAnalysisOf(frames, [userPhotoEmbedding]).criteria.map((c) => c.name);
 * // ['onePersonThroughout', 'sameAsCaptures', 'liveness', 'faceVisibility']
 */
export function videoAnalysisOf(
  video: readonly FrameAnalysis[],
  captures: readonly number[][],
  threshold = SAME_PERSON_COSINE,
): VideoAiAnalysis {
  const faced = video.filter((f) => f.faces.length > 0);
  const mains = faced.map((f) => mainFace(f, ANY_FACE)!);
  const centre = medoid(mains.map((f) => f.embedding).filter((e) => e.length > 0));
  const consistent = faced.filter((f, i) => {
    const e = mains[i]!.embedding;
    return (
      f.faces.length === 1 &&
      centre !== null &&
      e.length === centre.length &&
      cosineSimilarity(e, centre) >= threshold
    );
  }).length;
  const matching = mains.filter((f) =>
    captures.some(
      (c) => c.length === f.embedding.length && cosineSimilarity(c, f.embedding) >= threshold,
    ),
  ).length;
  const n = faced.length;
  const criteria: VideoCriterion[] = [
    {
      name: 'onePersonThroughout',
      score: n ? round2(consistent / n) : 0,
      confidence: confidenceOf(n),
    },
    {
      name: 'sameAsCaptures',
      score: n && captures.length ? round2(matching / n) : 0,
      confidence: captures.length ? confidenceOf(n) : 0,
    },
    {
      name: 'liveness',
      score: n
        ? round2(
            quantile(
              mains.map((f) => (f.real + f.live) / 2),
              0.5,
            ),
          )
        : 0,
      confidence: confidenceOf(n),
    },
    {
      name: 'faceVisibility',
      score: video.length ? round2(n / video.length) : 0,
      confidence: confidenceOf(video.length),
    },
  ];
  const weight = criteria.reduce((s, c) => s + c.confidence, 0);
  const overallScore =
    weight > 0 ? round2(criteria.reduce((s, c) => s + c.score * c.confidence, 0) / weight) : 0;
  return { overallScore, criteria, framesAnalysed: video.length };
}
