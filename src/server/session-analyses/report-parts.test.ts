/**
 * The pure report parts over hand-made analyses: what the models' scores become.
 */
import { describe, expect, it } from 'vitest';
import type { AnalyzedFace, FrameAnalysis } from '../face-analysis/analyzer';
import { aiAnalysisOf } from './ai-analysis';
import { DeepfakeError, spoofVerdict } from './deepfake';
import { videoAnalysisOf } from './video-analysis';

const unit = (i: number, n = 8) => Array.from({ length: n }, (_, j) => (j === i ? 1 : 0.05));

function face(o: Partial<AnalyzedFace> = {}): AnalyzedFace {
  return {
    box: { x: 10, y: 10, width: 100, height: 100 },
    score: 0.9,
    embedding: unit(0),
    rotation: { yaw: 0, pitch: 0, roll: 0 },
    real: 0.9,
    live: 0.9,
    age: 30,
    gender: 'male',
    genderScore: 0.9,
    ...o,
  } as AnalyzedFace;
}
const frame = (...faces: AnalyzedFace[]): FrameAnalysis => ({
  width: 640,
  height: 480,
  brightness: 120,
  ms: 1,
  faces,
});

describe('aiAnalysisOf', () => {
  it('turns the estimates into a range, a sex and real/virtual, worded as estimates', () => {
    const a = aiAnalysisOf([frame(face({ age: 28 })), frame(face({ age: 32 })), frame(face())]);
    expect(a).toMatchObject({ ageMin: 25, ageMax: 35, sex: 'male', realPersonOrVirtual: 'real' });
    expect(a?.overallSummary).toMatch(/estimates/);
    expect(a?.analysis.map((x) => x.title)).toContain('Antispoof model');
  });
  it('says virtual when both models score low, unknown sex on a split vote', () => {
    const a = aiAnalysisOf([
      frame(face({ real: 0.1, live: 0.2, gender: 'female', genderScore: 0.6 })),
      frame(face({ real: 0.2, live: 0.1, gender: 'male', genderScore: 0.6 })),
    ]);
    expect(a).toMatchObject({ sex: 'unknown', realPersonOrVirtual: 'virtual' });
  });
  it('counts only the frames the gender model read (light liveness frames have no estimate)', () => {
    const light = face({ age: 0, gender: 'unknown', genderScore: 0, embedding: [] });
    const a = aiAnalysisOf([frame(face()), frame(light), frame(light)]);
    const sex = a?.analysis.find((x) => x.title === 'Sex estimate');
    expect(sex?.longDescription).toMatch(/over 1 frame\(s\)/);
    expect(a).toMatchObject({ ageMin: 25, ageMax: 35, sex: 'male' });
  });
  it('is null without a face', () => {
    expect(aiAnalysisOf([frame(), frame()])).toBeNull();
  });
});

describe('spoofVerdict', () => {
  it('authentic, manipulated or unknown from the antispoof and liveness medians', () => {
    expect(spoofVerdict([frame(face()), frame(face()), frame(face())])).toEqual({
      verdict: 'authentic',
      manipulationScore: 0.1,
    });
    const low = frame(face({ real: 0.1, live: 0.2 }));
    expect(spoofVerdict([low, low, low]).verdict).toBe('manipulated');
    // Too few frames for a verdict, however clear the score.
    expect(spoofVerdict([low]).verdict).toBe('unknown');
  });
  it('throws no_face when there is nothing to judge', () => {
    expect(() => spoofVerdict([frame()])).toThrow(DeepfakeError);
  });
});

describe('videoAnalysisOf', () => {
  it('scores one person, the same as the captures, liveness and visibility', () => {
    const v = videoAnalysisOf([frame(face()), frame(face()), frame()], [unit(0)]);
    const by = Object.fromEntries(v.criteria.map((c) => [c.name, c]));
    expect(by['onePersonThroughout']!.score).toBe(1);
    expect(by['sameAsCaptures']!.score).toBe(1);
    expect(by['faceVisibility']!.score).toBe(0.67);
    expect(by['liveness']!.score).toBe(0.9);
    expect(v.overallScore).toBeGreaterThan(0.8);
  });
  it('a second face or another person lowers the scores; no captures: confidence 0', () => {
    const other = face({ embedding: unit(3) });
    const v = videoAnalysisOf([frame(face(), other), frame(other), frame(face())], []);
    const by = Object.fromEntries(v.criteria.map((c) => [c.name, c]));
    expect(by['onePersonThroughout']!.score).toBeLessThan(0.7);
    expect(by['sameAsCaptures']).toMatchObject({ score: 0, confidence: 0 });
  });
  it('no frames: every score and confidence 0', () => {
    const v = videoAnalysisOf([], []);
    expect(v.overallScore).toBe(0);
    expect(v.criteria.every((c) => c.confidence === 0)).toBe(true);
  });
});
