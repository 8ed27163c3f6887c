import type { FaceObservation, FrameSize } from './face';
import { faceScale, headPose } from './pose';

/** A hint shown under the oval, most urgent first. */
export type Hint =
  'noFace' | 'onePerson' | 'moreLight' | 'moveCloser' | 'moveFarther' | 'center' | 'lookStraight';

export interface GuidanceOptions {
  /** Smallest acceptable face scale (box width over the frame's shorter side). */
  minScale: number;
  maxScale: number;
  /** How far the face centre may be from the frame centre, as a fraction of each dimension. */
  centreTolerance: number;
  /** Mean luma 0–255 below which the picture is too dark. */
  minBrightness: number;
  /** Faces below this detector score are ignored (a poster far behind, a false detection). */
  minScore: number;
  /**
   * Largest head turn, either way, in `headPose` degrees, that counts as facing the camera. The
   * baseline frame every challenge is measured against is taken only then.
   */
  maxYawDegrees: number;
}

export const DEFAULT_GUIDANCE: GuidanceOptions = {
  minScale: 0.3,
  maxScale: 0.75,
  centreTolerance: 0.15,
  minBrightness: 60,
  minScore: 0.5,
  maxYawDegrees: 12,
};

export interface Guidance {
  hints: Hint[];
  /** True when nothing needs fixing: the face fits the oval. */
  ready: boolean;
}

/**
 * The hints for one camera frame: every problem found, most urgent first.
 *
 * @example
 * guide([face], { width: 640, height: 480 }, 120).hints; // [] or e.g. ['moveCloser', 'center']
 * guide([], frame, 120).hints; // ['noFace']
 */
export function guide(
  faces: readonly FaceObservation[],
  frame: FrameSize,
  brightness: number,
  options: Partial<GuidanceOptions> = {},
): Guidance {
  const o = { ...DEFAULT_GUIDANCE, ...options };
  const hints: Hint[] = [];
  const seen = faces.filter((f) => (f.score ?? 1) >= o.minScore);
  if (brightness < o.minBrightness) hints.push('moreLight');
  const face = seen[0];
  if (!face) return { hints: ['noFace', ...hints], ready: false };
  if (seen.length > 1) hints.unshift('onePerson');
  const scale = faceScale(face, frame);
  if (scale < o.minScale) hints.push('moveCloser');
  else if (scale > o.maxScale) hints.push('moveFarther');
  const cx = (face.box.x + face.box.width / 2) / frame.width - 0.5;
  const cy = (face.box.y + face.box.height / 2) / frame.height - 0.5;
  if (Math.abs(cx) > o.centreTolerance || Math.abs(cy) > o.centreTolerance) hints.push('center');
  if (turnedAway(face, o.maxYawDegrees)) hints.push('lookStraight');
  return { hints, ready: hints.length === 0 };
}

function turnedAway(face: FaceObservation, maxYawDegrees: number): boolean {
  try {
    return Math.abs(headPose(face).yawDegrees) > maxYawDegrees;
  } catch {
    // Keypoints the pose cannot be read from (both eyes on one point): no turn to speak of.
    return false;
  }
}

/**
 * Mean luma (BT.601) of RGBA pixels, sampling every `step`th pixel: cheap enough for every frame.
 *
 * @example
 * meanBrightness(imageData.data, 4); // 0–255
 */
export function meanBrightness(rgba: ArrayLike<number>, step = 1): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i + 2 < rgba.length; i += 4 * Math.max(1, step)) {
    sum += 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}
