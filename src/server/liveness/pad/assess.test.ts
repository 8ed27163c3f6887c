import { describe, expect, it } from 'vitest';
import type { AnalyzedFace } from '../../face-analysis/analyzer';
import { assessPresentation, type PadFrame } from './assess';
import type { FrameCues } from './cues';

const face = (o: Partial<AnalyzedFace> = {}): AnalyzedFace => ({
  box: { x: 200, y: 120, width: 240, height: 240 },
  keypoints: [],
  score: 0.95,
  embedding: [],
  rotation: { yaw: 0, pitch: 0, roll: 0 },
  real: 0.6,
  live: 0.9,
  age: 30,
  gender: 'female',
  genderScore: 0.9,
  ...o,
});

const side = (support: number) => ({ support, distance: 0.5, angle: 0 });
const cues = (
  o: { enclosed?: boolean; scale?: number; lines?: number; pattern?: number; found?: number } = {},
): FrameCues => ({
  scale: o.scale ?? 0.5,
  border: {
    sides: { top: side(0.2), bottom: side(o.enclosed ? 0.95 : 0.2), left: side(0.2), right: null },
    found: o.found ?? (o.enclosed ? 3 : 0),
    enclosed: o.enclosed ?? false,
  },
  text: { lines: o.lines ?? 0, where: o.lines ? 'right' : null },
  spectrum: { size: 64, peakRatio: o.pattern ?? 9, peak: null },
  ms: 20,
});

const verdicts = (frames: PadFrame[]) =>
  Object.fromEntries(assessPresentation(frames).checks.map((c) => [c.name, c.verdict]));

describe('assessPresentation', () => {
  it('finds nothing on a face filling the frame with plain cues', () => {
    const a = assessPresentation([0, 1, 2].map(() => ({ face: face(), cues: cues() })));
    expect(a.attack).toBe(false);
    expect(a.attackBy).toEqual([]);
    expect(a.checks.map((c) => c.name)).toEqual([
      'border',
      'textBeside',
      'smallFaceInFrame',
      'screenOrPrintPattern',
      'planarMotion',
      'antispoofModel',
      'livenessModel',
    ]);
  });

  it('calls a face in a frame an attack, from one frame too (a face_scan sends one)', () => {
    const a = assessPresentation([{ face: face(), cues: cues({ enclosed: true }) }]);
    expect(a.attack).toBe(true);
    expect(a.attackBy).toContain('border');
    expect(a.checks.find((c) => c.name === 'border')).toMatchObject({ score: 1, frames: 1 });
  });

  it('does not let one stray frame of many decide the border', () => {
    const frames = Array.from({ length: 8 }, (_, k) => ({
      face: face(),
      cues: cues({ enclosed: k === 3 }),
    }));
    expect(verdicts(frames)['border']).toBe('bonaFide');
  });

  it('calls a small face with text or edges beside it a document', () => {
    const doc = { face: face(), cues: cues({ scale: 0.14, lines: 3, found: 2 }) };
    expect(verdicts([doc, doc])).toMatchObject({
      textBeside: 'attack',
      smallFaceInFrame: 'attack',
    });
    // The same text beside a face of someone at the camera says nothing.
    const near = { face: face(), cues: cues({ scale: 0.5, lines: 3, found: 2 }) };
    expect(verdicts([near, near])).toMatchObject({
      textBeside: 'bonaFide',
      smallFaceInFrame: 'bonaFide',
    });
  });

  it('calls a screen or print pattern an attack by the median of the frames', () => {
    const f = (pattern: number) => ({ face: face(), cues: cues({ pattern }) });
    expect(verdicts([f(300), f(250), f(12)])['screenOrPrintPattern']).toBe('attack');
    expect(verdicts([f(300), f(12), f(10)])['screenOrPrintPattern']).toBe('bonaFide');
  });

  it('takes the models’ scores as they are', () => {
    const low = { face: face({ real: 0.1 }), cues: cues() };
    expect(assessPresentation([low, low]).attackBy).toEqual(['antispoofModel']);
  });

  it('says unknown where it has nothing to read', () => {
    const v = verdicts([{ face: face() }]);
    expect(v['border']).toBe('unknown');
    expect(v['planarMotion']).toBe('unknown');
  });
});
