import { nameKeypoints, type FaceObservation, type FrameSize } from './face';

/**
 * The head pose read from the six keypoints, from the user's point of view.
 *
 * `yaw` is positive when the user has turned their head to their own left (in an unmirrored frame
 * the nose moves towards the image's right), negative to their right. `pitch` grows when the user
 * looks down and shrinks when they look up; compare it with the same user's frontal value.
 */
export interface HeadPose {
  /** Nose offset from the eye midpoint along the eye line, in inter-eye distances. */
  yawRatio: number;
  /** `yawRatio` turned into degrees under a simple head model (see `NOSE_DEPTH`). */
  yawDegrees: number;
  /** Nose position between the eye line (0) and the mouth (1). About 0.5 when frontal. */
  pitch: number;
  /**
   * How far the ears' midpoint has moved against the nose, in inter-eye distances, signed like
   * yaw: the ears are behind the eyes, so it is positive when the user turns to their left.
   */
  earShift: number;
  /** Whether the ears moved against the nose as a real head's do (always true near frontal). */
  earsAgree: boolean;
  /** Head roll in degrees: the eye line's angle to the image horizontal. */
  rollDegrees: number;
  /** Distance between the eyes in pixels. */
  eyeDistance: number;
}

/**
 * Depth of the nose tip in front of the eyes as a fraction of the distance between the eyes.
 * With it, yawRatio = NOSE_DEPTH × tan(yaw). An average adult value; a rough figure is enough
 * because challenges compare a user with themselves.
 */
export const NOSE_DEPTH = 0.5;

/** Below this |yaw ratio| the ears are not asked to agree: near frontal their balance is noise. */
const EAR_CHECK_FROM = 0.12;

/**
 * Reads the head pose from a face's six keypoints.
 *
 * @example
 * const pose = headPose(face);
 * pose.yawDegrees > 20; // the user turned to their left
 * headPose(faceFromMirroredPreview, { mirrored: true, frame });
 */
export function headPose(
  face: FaceObservation,
  opts: { mirrored?: boolean; frame?: FrameSize } = {},
): HeadPose {
  const k = nameKeypoints(face);
  const ex = k.imageRightEye.x - k.imageLeftEye.x;
  const ey = k.imageRightEye.y - k.imageLeftEye.y;
  const eyeDistance = Math.hypot(ex, ey);
  if (eyeDistance === 0) throw new Error('the two eyes are at the same point');
  const ux = ex / eyeDistance;
  const uy = ey / eyeDistance;
  // Perpendicular to the eye line, pointing from the eyes towards the mouth (image y grows down).
  const vx = -uy;
  const vy = ux;
  const mx = (k.imageLeftEye.x + k.imageRightEye.x) / 2;
  const my = (k.imageLeftEye.y + k.imageRightEye.y) / 2;
  const along = (p: { x: number; y: number }) => (p.x - mx) * ux + (p.y - my) * uy;
  const across = (p: { x: number; y: number }) => (p.x - mx) * vx + (p.y - my) * vy;

  const sign = opts.mirrored ? -1 : 1;
  const yawRatio = (sign * along(k.nose)) / eyeDistance;
  // The ears sit behind the eyes, the nose in front: a real turn moves their midpoint the other
  // way from the nose. A flat picture moves everything together.
  const earShift = (-sign * (along(k.imageLeftEar) + along(k.imageRightEar))) / 2 / eyeDistance;
  const mouthAcross = across(k.mouth);
  const pitch = mouthAcross > 0 ? across(k.nose) / mouthAcross : 0;
  const earsAgree =
    Math.abs(yawRatio) < EAR_CHECK_FROM || Math.sign(earShift) === Math.sign(yawRatio);
  return {
    yawRatio,
    yawDegrees: (Math.atan(yawRatio / NOSE_DEPTH) * 180) / Math.PI,
    pitch,
    earShift,
    earsAgree,
    rollDegrees: (sign * Math.atan2(ey, ex) * 180) / Math.PI,
    eyeDistance,
  };
}

/**
 * How big the face is in the frame: box width over the frame's shorter side. Larger means closer.
 * Using the shorter side keeps the figure the same in portrait and landscape.
 *
 * @example
 * faceScale({ box: { x: 0, y: 0, width: 240, height: 300 }, keypoints }, { width: 640, height: 480 }); // 0.5
 */
export function faceScale(face: FaceObservation, frame: FrameSize): number {
  return face.box.width / Math.min(frame.width, frame.height);
}

/**
 * A rough camera distance in centimetres from the face box, for hints and reports only.
 * Assumes a 14 cm wide face and a camera whose horizontal field of view is `fovDegrees` (60 by
 * default, typical of front cameras).
 *
 * @example
 * faceDistanceCm(face, { width: 640, height: 480 }); // ≈ 36 for a box 200 px wide
 */
export function faceDistanceCm(face: FaceObservation, frame: FrameSize, fovDegrees = 60): number {
  const fraction = face.box.width / frame.width;
  if (fraction <= 0) return Infinity;
  return 14 / (2 * Math.tan(((fovDegrees / 2) * Math.PI) / 180) * fraction);
}
