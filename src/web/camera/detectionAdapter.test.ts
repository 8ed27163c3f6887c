import { describe, expect, it } from 'vitest';
import { headPose } from '../../core/liveness';
import { syntheticFace } from '../../core/liveness/synthetic';
import { toFaceObservations, type MediaPipeDetection } from './detectionAdapter';

const frame = { width: 640, height: 480 };

/** What MediaPipe would report for a synthetic head: box in pixels, keypoints normalised. */
function asDetection(yawDeg: number, score = 0.9): MediaPipeDetection {
  const face = syntheticFace({ yawDeg });
  return {
    categories: [{ score }],
    boundingBox: {
      originX: face.box.x,
      originY: face.box.y,
      width: face.box.width,
      height: face.box.height,
    },
    keypoints: face.keypoints.map((p) => ({ x: p.x / frame.width, y: p.y / frame.height })),
  };
}

describe('toFaceObservations', () => {
  it('scales the keypoints back to pixels and keeps the box', () => {
    const [face] = toFaceObservations([asDetection(0)], frame);
    const expected = syntheticFace({ yawDeg: 0 });
    expect(face!.box).toEqual(expected.box);
    face!.keypoints.forEach((p, i) => {
      expect(p.x).toBeCloseTo(expected.keypoints[i]!.x, 9);
      expect(p.y).toBeCloseTo(expected.keypoints[i]!.y, 9);
    });
    expect(face!.score).toBe(0.9);
  });

  it('gives a pose the core reads as the turn that was made', () => {
    const [face] = toFaceObservations([asDetection(30)], frame);
    expect(headPose(face!).yawDegrees).toBeGreaterThan(20);
    const [other] = toFaceObservations([asDetection(-30)], frame);
    expect(headPose(other!).yawDegrees).toBeLessThan(-20);
  });

  it('puts the most confident face first', () => {
    const faces = toFaceObservations([asDetection(0, 0.55), asDetection(10, 0.97)], frame);
    expect(faces.map((f) => f.score)).toEqual([0.97, 0.55]);
  });

  it('drops detections the pose cannot use', () => {
    const noBox = { ...asDetection(0), boundingBox: undefined };
    const fewPoints = { ...asDetection(0), keypoints: asDetection(0).keypoints.slice(0, 4) };
    expect(toFaceObservations([noBox, fewPoints], frame)).toEqual([]);
    expect(toFaceObservations([], frame)).toEqual([]);
  });

  it('scores a detection without categories as 0', () => {
    const [face] = toFaceObservations([{ ...asDetection(0), categories: [] }], frame);
    expect(face!.score).toBe(0);
  });
});
