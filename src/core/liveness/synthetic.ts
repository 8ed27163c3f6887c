import type { FaceObservation, Point } from './face';

/** A head seen by a camera, for tests and fixtures: what the six keypoints of a real head do. */
export interface SyntheticHead {
  /** Degrees; positive when the user turns to their own left. */
  yawDeg?: number;
  /** Degrees; positive when the user looks up. */
  pitchDeg?: number;
  /** In-plane rotation of the whole image of the face, degrees. */
  rollDeg?: number;
  /** Centre of the face in the frame, pixels. */
  cx?: number;
  cy?: number;
  /** Distance between the eyes in pixels when frontal (sets the face size). */
  eyeDistance?: number;
  score?: number;
}

// A head in inter-eye units: x to the camera's right (the user's left), y down, z towards the
// camera. Average proportions: eyes 1 apart, face about 2.2 wide, ears well behind the eyes.
const MODEL: readonly [number, number, number][] = [
  [-0.5, 0, 0], // eye on the image's left (the user's right eye)
  [0.5, 0, 0],
  [0, 0.6, 0.5], // nose tip
  [0, 1.05, 0.15], // mouth centre
  [-1.1, 0.3, -1.0], // ear tragions
  [1.1, 0.3, -1.0],
];

/**
 * The face observation a detector would report for a head in the given pose (orthographic camera,
 * unmirrored frame).
 *
 * @example
 * syntheticFace({ yawDeg: 30 }); // the user turned 30° to their left
 */
export function syntheticFace(h: SyntheticHead = {}): FaceObservation {
  const yaw = ((h.yawDeg ?? 0) * Math.PI) / 180;
  const pitch = ((h.pitchDeg ?? 0) * Math.PI) / 180;
  const roll = ((h.rollDeg ?? 0) * Math.PI) / 180;
  const s = h.eyeDistance ?? 60;
  const cx = h.cx ?? 320;
  const cy = h.cy ?? 240;
  const keypoints: Point[] = MODEL.map(([x0, y0, z0]) => {
    // Yaw about the vertical axis, then pitch about the horizontal one (looking up moves y up).
    const x1 = x0 * Math.cos(yaw) + z0 * Math.sin(yaw);
    const z1 = -x0 * Math.sin(yaw) + z0 * Math.cos(yaw);
    const y1 = y0 * Math.cos(pitch) - z1 * Math.sin(pitch);
    const px = x1 * s;
    const py = (y1 - 0.4) * s;
    return {
      x: cx + px * Math.cos(roll) - py * Math.sin(roll),
      y: cy + px * Math.sin(roll) + py * Math.cos(roll),
    };
  });
  const width = 2.2 * s;
  const height = 2.6 * s;
  return {
    box: { x: cx - width / 2, y: cy - height / 2, width, height },
    keypoints,
    score: h.score ?? 0.95,
  };
}
