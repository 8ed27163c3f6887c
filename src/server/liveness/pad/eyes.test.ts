import { describe, expect, it } from 'vitest';
import { LANDMARK_INDEXES } from '../../face-analysis/human-analyzer';
import { blinkEvidence, eyeOpenness } from './eyes';

/** 64 landmarks with two eyes 30 px wide whose lids are `gap` px apart. */
function face(gap: number, scale = 1): [number, number][] {
  const at = new Map<number, [number, number]>([
    [33, [100, 100]],
    [133, [130, 100]],
    [160, [115, 100 - gap / 2]],
    [144, [115, 100 + gap / 2]],
    [362, [160, 100]],
    [263, [190, 100]],
    [387, [175, 100 - gap / 2]],
    [373, [175, 100 + gap / 2]],
  ]);
  return LANDMARK_INDEXES.map((i): [number, number] => {
    const p = at.get(i) ?? [50 + (i % 17), 50 + (i % 13)];
    return [p[0] * scale, p[1] * scale];
  });
}

describe('eyeOpenness', () => {
  it('is the lid gap over the eye width, whatever the face size', () => {
    expect(eyeOpenness(face(10.5))).toBeCloseTo(0.35, 9);
    expect(eyeOpenness(face(10.5, 2.5))).toBeCloseTo(0.35, 9);
    expect(eyeOpenness(face(3))).toBeCloseTo(0.1, 9);
  });

  it('reads the eyes where LANDMARK_INDEXES puts them', () => {
    // Moving any other point changes nothing; moving a lid point does.
    const l = face(9);
    const other = l.map((p, k): [number, number] => (k < 36 ? [p[0] + 40, p[1] - 7] : p));
    expect(eyeOpenness(other)).toBeCloseTo(eyeOpenness(l)!, 9);
    const lid = l.map((p, k): [number, number] => (k === 38 ? [p[0], p[1] - 6] : p));
    expect(eyeOpenness(lid)!).toBeGreaterThan(eyeOpenness(l)! + 0.05);
  });

  it('is null without landmarks or with eyes of no width', () => {
    expect(eyeOpenness(undefined)).toBeNull();
    expect(eyeOpenness(face(9).slice(0, 40))).toBeNull();
    expect(eyeOpenness(face(9).map((): [number, number] => [5, 5]))).toBeNull();
  });
});

describe('blinkEvidence', () => {
  it('sees a brief closing among open frames', () => {
    const e = blinkEvidence([0.37, 0.38, 0.36, 0.21, 0.37]);
    expect(e.blink).toBe(true);
    expect(e.median).toBeCloseTo(0.37, 9);
    expect(e.ratio).toBeCloseTo(0.21 / 0.37, 9);
  });

  it('does not call the spread of open eyes on a moving head a blink', () => {
    // head-drift.y4m with the iris model: 0.350–0.385.
    expect(blinkEvidence([0.372, 0.35, 0.385, 0.366, 0.369]).blink).toBe(false);
    // A still picture never changes.
    expect(blinkEvidence([0.32, 0.32, 0.32]).ratio).toBe(1);
  });

  it('says nothing with too few readings, and skips frames without one', () => {
    expect(blinkEvidence([0.37, 0.2]).blink).toBeNull();
    expect(blinkEvidence([]).readings).toBe(0);
    expect(blinkEvidence([0.37, null, 0.38, null, 0.2]).readings).toBe(3);
    expect(blinkEvidence([0.37, null, 0.38, null, 0.2]).blink).toBe(true);
  });
});
