/**
 * The post-session analyses as the API shows them (compat.md §4.7, §4.8), from the records the
 * analyses write (session-analyses/schema.ts).
 */
import {
  MEASURED_VIDEO_CRITERIA,
  VIDEO_CRITERIA,
  type DeepfakeDetection,
  type DeepfakeDetectionStatus,
  type VideoAIAnalysis,
  type VideoCriterionResult,
  type VideoEvaluation,
} from '../../core/api';

type Json = Record<string, unknown>;

/** Scores at or above `normal` are normal, at or above `suspicious` suspicious, else high risk. */
export const VIDEO_EVALUATION_AT = { normal: 0.8, suspicious: 0.5 } as const;

/** What each measurement looked at, for `observation`. */
const MEASURES: Record<string, string> = {
  onePersonThroughout: 'one and the same face in the frames that held a face',
  sameAsCaptures: 'the face matching the captured photos',
  liveness: 'the antispoof and liveness models rating the face as a live person',
  faceVisibility: 'a face in view in the sampled frames',
};

const evaluationOf = (score: number): VideoEvaluation =>
  score >= VIDEO_EVALUATION_AT.normal
    ? 'normal'
    : score >= VIDEO_EVALUATION_AT.suspicious
      ? 'suspicious'
      : 'highFraudRisk';

/**
 * A stored video analysis (`{ overallScore, criteria, framesAnalysed }`) as the nine criteria of
 * the original product; the criteria this service does not measure say so, with confidence 0.
 *
 * @example
 * presentVideoAnalysis({ overallScore: 0.9, framesAnalysed: 10, criteria: [{ name: 'liveness', score: 0.9, confidence: 1 }] }).faceAuthenticity;
 * // { observation: '…', confidence: 1, evaluation: 'normal', score: 0.9 }
 */
export function presentVideoAnalysis(stored: Json): VideoAIAnalysis {
  const criteria = (Array.isArray(stored['criteria']) ? stored['criteria'] : []) as {
    name: string;
    score: number;
    confidence: number;
  }[];
  const byKey = new Map<string, VideoCriterionResult>();
  for (const [name, key] of MEASURED_VIDEO_CRITERIA) {
    const c = criteria.find((x) => x.name === name);
    if (!c) continue;
    const pct = Math.round(c.score * 100);
    byKey.set(key, {
      observation:
        c.confidence > 0
          ? `${pct}% for ${MEASURES[name]}.`
          : `Nothing to judge ${MEASURES[name]} on.`,
      confidence: c.confidence,
      evaluation: c.confidence > 0 ? evaluationOf(c.score) : 'normal',
      score: c.score,
    });
  }
  const out: Record<string, unknown> = {};
  for (const key of VIDEO_CRITERIA) {
    out[key] = byKey.get(key) ?? {
      observation: 'Not measured by this service.',
      confidence: 0,
      evaluation: 'normal',
    };
  }
  out['riskyIndicators'] = VIDEO_CRITERIA.filter(
    (k) => (out[k] as VideoCriterionResult).evaluation !== 'normal',
  );
  out['overallScore'] = typeof stored['overallScore'] === 'number' ? stored['overallScore'] : 0;
  out['framesAnalysed'] =
    typeof stored['framesAnalysed'] === 'number' ? stored['framesAnalysed'] : 0;
  return out as VideoAIAnalysis;
}

/**
 * The stored deepfake status (`status`) as the API's (`state`).
 *
 * @example
 * presentDeepfakeStatus({ status: 'pending', startedAt: 1 }); // { state: 'pending', startedAt: 1 }
 */
export function presentDeepfakeStatus(stored: Json): DeepfakeDetectionStatus {
  const { status, ...rest } = stored;
  return { state: status, ...rest } as DeepfakeDetectionStatus;
}

/**
 * The stored verdict (`manipulationScore`) as the API's (`score`, `analyzedAt`).
 *
 * @example
 * presentDeepfake({ verdict: 'authentic', manipulationScore: 0.1 }, { status: 'succeeded', finishedAt: 9 });
 * // { verdict: 'authentic', score: 0.1, analyzedAt: 9 }
 */
export function presentDeepfake(stored: Json, status: Json | undefined): DeepfakeDetection {
  const score = stored['manipulationScore'];
  const at = status?.['finishedAt'];
  return {
    verdict: stored['verdict'] as DeepfakeDetection['verdict'],
    score: typeof score === 'number' ? score : null,
    ...(typeof at === 'number' ? { analyzedAt: at } : {}),
  };
}
