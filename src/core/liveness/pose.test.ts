import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameKeypoints, unmirror, type FaceObservation } from './face';
import { faceDistanceCm, faceScale, headPose } from './pose';
import { syntheticFace } from './synthetic';

const frame = { width: 640, height: 480 };

describe('headPose', () => {
  it('reads a frontal face as yaw 0 with the nose halfway down', () => {
    const p = headPose(syntheticFace());
    expect(p.yawDegrees).toBeCloseTo(0, 6);
    expect(p.rollDegrees).toBeCloseTo(0, 6);
    expect(p.pitch).toBeGreaterThan(0.4);
    expect(p.pitch).toBeLessThan(0.7);
    expect(p.earsAgree).toBe(true);
  });

  it('gives positive yaw when the user turns to their own left, negative to their right', () => {
    const left = headPose(syntheticFace({ yawDeg: 30 }));
    const right = headPose(syntheticFace({ yawDeg: -30 }));
    expect(left.yawDegrees).toBeCloseTo(30, 1);
    expect(right.yawDegrees).toBeCloseTo(-30, 1);
    expect(left.earShift).toBeGreaterThan(0);
    expect(right.earShift).toBeLessThan(0);
    expect(left.earsAgree && right.earsAgree).toBe(true);
  });

  it('flips the sign for a mirrored frame unless told it is mirrored', () => {
    const turned = syntheticFace({ yawDeg: 25 });
    const mirrored = unmirror(turned, frame); // mirroring is its own inverse
    expect(headPose(mirrored).yawDegrees).toBeCloseTo(-25, 1);
    expect(headPose(mirrored, { mirrored: true }).yawDegrees).toBeCloseTo(25, 1);
    expect(headPose(unmirror(mirrored, frame)).yawDegrees).toBeCloseTo(25, 1);
  });

  it('does not depend on the order the detector lists the eyes and ears in', () => {
    const f = syntheticFace({ yawDeg: -18 });
    const [a, b, n, m, c, d] = f.keypoints;
    const swapped: FaceObservation = { ...f, keypoints: [b!, a!, n!, m!, d!, c!] };
    expect(headPose(swapped)).toEqual(headPose(f));
  });

  it('reads looking up as a smaller pitch figure', () => {
    expect(headPose(syntheticFace({ pitchDeg: 20 })).pitch).toBeLessThan(
      headPose(syntheticFace()).pitch - 0.12,
    );
    expect(headPose(syntheticFace({ pitchDeg: -20 })).pitch).toBeGreaterThan(
      headPose(syntheticFace()).pitch,
    );
  });

  it('is unchanged by moving, scaling and rolling the face in the image', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -40, max: 40, noNaN: true }),
        fc.double({ min: 100, max: 540, noNaN: true }),
        fc.double({ min: 100, max: 380, noNaN: true }),
        fc.double({ min: 20, max: 200, noNaN: true }),
        fc.double({ min: -30, max: 30, noNaN: true }),
        (yawDeg, cx, cy, eyeDistance, rollDeg) => {
          const p = headPose(syntheticFace({ yawDeg, cx, cy, eyeDistance, rollDeg }));
          expect(p.yawDegrees).toBeCloseTo(yawDeg, 6);
          expect(p.rollDegrees).toBeCloseTo(rollDeg, 6);
        },
      ),
    );
  });

  it('refuses a face without six keypoints', () => {
    const f = syntheticFace();
    expect(() => headPose({ ...f, keypoints: f.keypoints.slice(0, 4) })).toThrow(/six keypoints/);
    expect(() => nameKeypoints({ ...f, keypoints: [] })).toThrow(/got 0/);
  });
});

describe('face size and distance', () => {
  it('measures the face against the shorter side of the frame', () => {
    const f = syntheticFace({ eyeDistance: 100 }); // box 220 px wide
    expect(faceScale(f, frame)).toBeCloseTo(220 / 480, 6);
    expect(faceScale(f, { width: 480, height: 640 })).toBeCloseTo(220 / 480, 6);
  });

  it('puts a bigger face closer, inversely to its width', () => {
    const near = faceDistanceCm(syntheticFace({ eyeDistance: 120 }), frame);
    const far = faceDistanceCm(syntheticFace({ eyeDistance: 60 }), frame);
    expect(far / near).toBeCloseTo(2, 6);
    expect(near).toBeGreaterThan(10);
    expect(far).toBeLessThan(100);
  });
});
