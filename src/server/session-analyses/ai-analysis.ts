/**
 * `report.aiAnalysis` from the session's captured frames: what `human`'s age, gender, antispoof
 * and liveness models estimated, worded as their estimates.
 */
import type { FrameAnalysis } from '../face-analysis/analyzer';
import { ANY_FACE, mainFace } from '../face-analysis/main-face';
import { quantile, round2 } from './frames';
import type { AiAnalysis } from './schema';

/**
 * Years added each side of the median age: appearance-based age models are commonly off by
 * several years for one face, so a range narrower than this would claim too much.
 */
export const AGE_MARGIN = 5;
/** Share of the gender votes one side needs before a sex estimate is given. */
export const SEX_MAJORITY = 0.65;

const describeScore = (x: number) => (x >= 0.7 ? 'high' : x >= 0.5 ? 'moderate' : 'low');

/**
 * The aiAnalysis of a set of analysed frames, or null when no frame held a face (nothing to
 * estimate from).
 *
 * @example
 * aiAnalysisOf(frames)?.realPersonOrVirtual; // 'real'
 */
export function aiAnalysisOf(frames: readonly FrameAnalysis[]): AiAnalysis | null {
  const faces = frames.map((f) => mainFace(f, ANY_FACE)).filter((f) => f !== null);
  if (faces.length === 0) return null;
  const n = faces.length;
  const many = frames.filter((f) => f.faces.length > 1).length;
  const none = frames.length - n;

  const ages = faces.map((f) => f.age).filter((a) => Number.isFinite(a) && a > 0);
  const med = quantile(ages, 0.5);
  const ageMin = ages.length
    ? Math.max(0, Math.floor(Math.min(quantile(ages, 0.1), med - AGE_MARGIN)))
    : 0;
  const ageMax = ages.length ? Math.ceil(Math.max(quantile(ages, 0.9), med + AGE_MARGIN)) : 0;

  let male = 0;
  let female = 0;
  // Light liveness frames (no description model: src/server/liveness/light-frames.ts) cast no vote.
  const voters = faces.filter((f) => f.gender !== 'unknown').length;
  for (const f of faces) {
    if (f.gender === 'male') male += f.genderScore;
    else if (f.gender === 'female') female += f.genderScore;
  }
  const maleShare = male + female > 0 ? male / (male + female) : 0.5;
  const sex =
    maleShare >= SEX_MAJORITY ? 'male' : maleShare <= 1 - SEX_MAJORITY ? 'female' : 'unknown';
  const sexConfidence = round2(sex === 'male' ? maleShare : sex === 'female' ? 1 - maleShare : 0.5);

  const real = round2(
    quantile(
      faces.map((f) => f.real),
      0.5,
    ),
  );
  const live = round2(
    quantile(
      faces.map((f) => f.live),
      0.5,
    ),
  );
  const realPersonOrVirtual =
    real >= 0.5 && live >= 0.5 ? 'real' : real < 0.5 && live < 0.5 ? 'virtual' : 'uncertain';

  const ageText = ages.length ? `about ${ageMin}–${ageMax} years old` : 'of no estimated age';
  const sexText = sex === 'unknown' ? 'a person (sex not estimated with confidence)' : `a ${sex}`;
  const realText =
    realPersonOrVirtual === 'real'
      ? 'looks like a real person in front of the camera'
      : realPersonOrVirtual === 'virtual'
        ? 'looks like a picture or a screen rather than a person in front of the camera'
        : 'the antispoof and liveness models disagree on whether this is a person in front of the camera';
  const facesText =
    many === 0 && none === 0
      ? 'one face in every frame'
      : `one face in ${n - many} of ${frames.length} frames, several in ${many}, none in ${none}`;

  return {
    ageMin,
    ageMax,
    sex,
    realPersonOrVirtual,
    overallSummary:
      `Models' estimates over ${n} frame${n === 1 ? '' : 's'} with a face: ${sexText}, ` +
      `${ageText}; ${realText} (antispoof ${real}, liveness ${live}); ${facesText}.`,
    analysis: [
      {
        title: 'Age estimate',
        shortDescription: ages.length
          ? `Estimated ${ageMin}–${ageMax} years (median estimate ${Math.round(med)})`
          : 'No age estimate',
        longDescription:
          `The age model estimated the age of the face in ${ages.length} frame(s); the range is ` +
          `the median estimate widened by ${AGE_MARGIN} years each side and by the spread across ` +
          'frames. It is an estimate from appearance, not a fact about the person.',
      },
      {
        title: 'Sex estimate',
        shortDescription:
          sex === 'unknown'
            ? 'No confident estimate'
            : `Estimated ${sex} (share of the model's votes ${sexConfidence})`,
        longDescription:
          `The gender model's answers, weighted by its own confidence, over ${voters} frame(s): ` +
          `${round2(maleShare)} of the weight for male. Below ${SEX_MAJORITY} for either side ` +
          'no estimate is given. It is an estimate from appearance only.',
      },
      {
        title: 'Antispoof model',
        shortDescription: `Real-face score ${real} (${describeScore(real)})`,
        longDescription:
          'The antispoof model scores each face from 0 (looks like a screen or a print) to 1 ' +
          `(looks like a real face); ${real} is its median over the frames. It is one model's ` +
          'score, not a proof either way.',
      },
      {
        title: 'Liveness model',
        shortDescription: `Live-face score ${live} (${describeScore(live)})`,
        longDescription:
          'The liveness model scores each face from 0 (looks like a still picture) to 1 ' +
          `(looks like a live face); ${live} is its median over the frames.`,
      },
      {
        title: 'Faces in the frames',
        shortDescription: facesText.charAt(0).toUpperCase() + facesText.slice(1),
        longDescription:
          `${frames.length} captured frame(s) were analysed: ${n - many} held one face, ${many} ` +
          `several, ${none} none. Several faces can mean another person or a picture in view.`,
      },
    ],
  };
}
