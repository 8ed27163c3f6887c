/**
 * How open the eyes are, from the face mesh points kept with each face (`AnalyzedFace.landmarks`,
 * in the order of `LANDMARK_INDEXES`), and whether a series of frames holds a blink. A flat
 * picture cannot close its eyes; a person blinks every few seconds. Evidence only: no check
 * decides on it yet (docs/liveness-fixtures.md, "A still cut-out").
 */

/**
 * Positions in `LANDMARK_INDEXES` (human-analyzer.ts) of one eye's corners (mesh 33/133 and
 * 362/263) and of a point on its upper and lower lid (160/144 and 387/373).
 */
const EYES = [
  { corners: [36, 37], lids: [38, 39] },
  { corners: [40, 41], lids: [42, 43] },
] as const;

/** A blink is a frame whose eyes are open at most this share of the series' median. */
export const BLINK_RATIO = 0.75;

/** Fewer readings than this say nothing about blinking. */
export const MIN_BLINK_READINGS = 3;

type Landmarks = readonly (readonly [number, number])[];

const dist = (l: Landmarks, a: number, b: number) =>
  Math.hypot(l[a]![0] - l[b]![0], l[a]![1] - l[b]![1]);

/**
 * The eyes' opening: the gap between the lids over the width between the corners, the mean of
 * both eyes (about 0.35 for open eyes on this set, 0.2 closed; it depends on the mesh, see
 * `HumanAnalyzerOptions.iris`). Null without landmarks or with a degenerate eye.
 *
 * @example
 * eyeOpenness(face.landmarks); // 0.37
 */
export function eyeOpenness(landmarks: Landmarks | undefined): number | null {
  if (!landmarks || landmarks.length < 44) return null;
  let sum = 0;
  for (const e of EYES) {
    const width = dist(landmarks, e.corners[0], e.corners[1]);
    if (!(width > 0)) return null;
    sum += dist(landmarks, e.lids[0], e.lids[1]) / width;
  }
  return sum / EYES.length;
}

export interface BlinkEvidence {
  /** Readings (frames with an eye opening). */
  readings: number;
  /** Median opening of the series: the eyes open, since a blink is brief. */
  median: number | null;
  /** Least opening over the median (1 for a series that never changes). */
  ratio: number | null;
  /** Whether a reading dipped to `BLINK_RATIO` of the median; null with too few readings. */
  blink: boolean | null;
}

/**
 * Whether a series of eye openings (frames in time order, nulls skipped) holds a blink: a reading
 * at most `BLINK_RATIO` of the series' median.
 *
 * @example
 * blinkEvidence([0.37, 0.38, 0.21, 0.36]).blink; // true
 */
export function blinkEvidence(openness: readonly (number | null)[]): BlinkEvidence {
  const v = openness.filter((x): x is number => x !== null && Number.isFinite(x));
  if (v.length === 0) return { readings: 0, median: null, ratio: null, blink: null };
  const sorted = [...v].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const ratio = median > 0 ? sorted[0]! / median : null;
  const blink = v.length < MIN_BLINK_READINGS || ratio === null ? null : ratio <= BLINK_RATIO;
  return { readings: v.length, median, ratio, blink };
}
