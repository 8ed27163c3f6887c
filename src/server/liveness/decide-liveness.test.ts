import { describe, expect, it } from 'vitest';
import type { Challenge } from '../../core/liveness';
import { NOSE_DEPTH } from '../../core/liveness/pose';
import { syntheticFace, type SyntheticHead } from '../../core/liveness/synthetic';
import {
  decideLiveness,
  type EvidenceFrame,
  type LivenessDecision,
  type LivenessEvidence,
  type LivenessFrame,
} from './decide-liveness';
import type { FrameCues } from './pad/cues';
import type { AnalyzedFace, FrameAnalysis, FrameFailure } from '../face-analysis/analyzer';
import { LANDMARK_INDEXES } from '../face-analysis/human-analyzer';

/** An embedding for "person p": unit vectors far apart for different p, slightly noisy. */
function embedding(person: number, jitter = 0): number[] {
  return Array.from(
    { length: 64 },
    (_, i) => (i % 8 === person ? 1 : 0.05) + 0.02 * Math.sin(i * 7 + jitter),
  );
}

interface Shot extends SyntheticHead {
  person?: number;
  real?: number;
  live?: number;
}

function face(s: Shot, k = 0): AnalyzedFace {
  return {
    ...syntheticFace({ eyeDistance: 80, ...s }),
    score: s.score ?? 0.95,
    embedding: embedding(s.person ?? 0, k),
    rotation: { yaw: 0, pitch: 0, roll: 0 },
    real: s.real ?? 0.9,
    live: s.live ?? 0.9,
    age: 30,
    gender: 'female',
    genderScore: 0.9,
  };
}

function frame(shots: Shot[], k = 0, brightness = 120): FrameAnalysis {
  return { width: 640, height: 480, brightness, faces: shots.map((s) => face(s, k)), ms: 200 };
}

/**
 * Mesh landmarks for `face` (in the order of `LANDMARK_INDEXES`) whose eyes are open `openness`:
 * the lid gap over the eye's width, as `eyeOpenness` reads it (0.37 open, 0.21 closed measured).
 */
function eyeLandmarks(face: AnalyzedFace, openness: number): [number, number][] {
  const [a, b] = face.keypoints as [AnalyzedFace['keypoints'][0], AnalyzedFace['keypoints'][0]];
  const w = (b.x - a.x) * 0.4;
  const at = new Map<number, [number, number]>();
  const eyes = [
    [a, [33, 133, 160, 144]],
    [b, [362, 263, 387, 373]],
  ] as const;
  for (const [c, [outer, inner, upper, lower]] of eyes) {
    at.set(outer, [c.x - w / 2, c.y]);
    at.set(inner, [c.x + w / 2, c.y]);
    at.set(upper, [c.x, c.y - (openness * w) / 2]);
    at.set(lower, [c.x, c.y + (openness * w) / 2]);
  }
  const { x, y, width, height } = face.box;
  return LANDMARK_INDEXES.map(
    (i, k): [number, number] =>
      at.get(i) ?? [x + (width * ((k * 7) % 64)) / 64, y + (height * ((k * 13) % 64)) / 64],
  );
}

/** The frame with its faces' eyes open `openness`. */
function withEyes(f: FrameAnalysis, openness: number): FrameAnalysis {
  return { ...f, faces: f.faces.map((x) => ({ ...x, landmarks: eyeLandmarks(x, openness) })) };
}

const challenges: Challenge[] = ['turnLeft', 'comeCloser', 'turnRight'];

/** A real user doing what is asked: baseline, each challenge, frontal frames between. */
function honest(): { frames: EvidenceFrame[]; results: FrameAnalysis[] } {
  const plan: [EvidenceFrame, Shot[]][] = [
    [{ t: 0, role: 'baseline' }, [{}]],
    [{ t: 1500, role: 'challenge', challengeIndex: 0 }, [{ yawDeg: 30 }]],
    [{ t: 2500, role: 'between' }, [{ yawDeg: 2 }]],
    [{ t: 4000, role: 'challenge', challengeIndex: 1 }, [{ eyeDistance: 110 }]],
    [{ t: 5000, role: 'between' }, [{ yawDeg: -1 }]],
    [{ t: 6500, role: 'challenge', challengeIndex: 2 }, [{ yawDeg: -28 }]],
  ];
  return { frames: plan.map((p) => p[0]), results: plan.map((p, k) => frame(p[1], k)) };
}

/** Decides a plan of frames: how the page labelled each, and what the server sees in it. */
function decidePlan(plan: [EvidenceFrame, Shot[]][]): LivenessDecision {
  return decideLiveness(
    evidence(plan.map((p) => p[0])),
    plan.map((p, k) => frame(p[1], k)),
  );
}

/** Every challenge met, each by the frame given, so the outcome is livenessDetected. */
function expectAllMetBy(d: LivenessDecision, frameIndexes: number[]): void {
  expect(d.report.challenges.map((c) => [c.challenge, c.met, c.frameIndex])).toEqual(
    challenges.map((c, i) => [c, true, frameIndexes[i]]),
  );
  expect(d.outcome).toBe('livenessDetected');
}

function evidence(
  frames: EvidenceFrame[],
  extra: Partial<LivenessEvidence> = {},
): LivenessEvidence {
  return {
    challenges,
    issuedAt: 1_000_000,
    receivedAt: 1_010_000,
    timeoutSeconds: 60,
    frames,
    ...extra,
  };
}

describe('decideLiveness', () => {
  it('passes a user who does every challenge in order, and reports what it measured', () => {
    const { frames, results } = honest();
    const d = decideLiveness(evidence(frames), results);
    expect(d.outcome).toBe('livenessDetected');
    expect(d.inconclusiveReason).toBeUndefined();
    expect(d.report.challenges.map((c) => [c.challenge, c.met, c.frameIndex])).toEqual([
      ['turnLeft', true, 1],
      ['comeCloser', true, 3],
      ['turnRight', true, 5],
    ]);
    expect(d.report.bestFrameIndex).toBe(0);
    expect(d.report.similarity!.min).toBeGreaterThan(0.99);
    expect(d.report.motion!.flat).toBe(false);
    expect(d.report.durationMs).toBe(6500);
    expect(d.report.facesPerFrame).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('refuses frames labelled as challenges that show no movement', () => {
    const { frames } = honest();
    const still = frames.map((_, k) => frame([{ yawDeg: 1 }], k));
    const d = decideLiveness(evidence(frames), still);
    expect(d).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'challengeFailed' });
    expect(d.report.challenges.every((c) => !c.met)).toBe(true);
  });

  it('calls a picture moved flat in front of the camera a spoof', () => {
    const { frames } = honest();
    const moved = frames.map((_, k) =>
      frame([{ cx: 200 + 50 * k, cy: 240 - 10 * k, eyeDistance: 70 + 8 * k, rollDeg: 4 * k }], k),
    );
    const d = decideLiveness(evidence(frames), moved);
    expect(d.outcome).toBe('deepfakeDetected');
    expect(d.report.motion!.flat).toBe(true);
    // comeCloser alone can be faked by moving a photo; the turns cannot.
    expect(d.report.challenges.map((c) => c.met)).toEqual([false, true, false]);
    expect(decideLiveness(evidence(frames), moved, { flatMotionAsSpoof: false })).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'challengeFailed',
    });
  });

  it('with challenges, a head that leaned in while its turn was missed gets another try, not "a picture"', () => {
    // Throttled-style: the turn's frame taken too early (yaw 8°), the head meanwhile 1.4× closer,
    // the face barely travelling in the picture.
    const frames: EvidenceFrame[] = [
      { t: 0, role: 'baseline' },
      { t: 800, role: 'between' },
      { t: 1600, role: 'challenge', challengeIndex: 0 },
      { t: 2400, role: 'between' },
    ];
    const leaned = [0, 1, 2, 3].map((k) =>
      frame([{ cx: 320 + 4 * k, yawDeg: k === 2 ? 8 : 0, eyeDistance: 80 + 11 * k }], k),
    );
    const d = decideLiveness(evidence(frames, { challenges: ['turnLeft'] }), leaned);
    expect(d.report.motion!.scaleRange).toBeGreaterThan(1.4);
    expect(d.report.motion!.travel).toBeLessThan(0.5);
    expect(d.report.motion!.flat).toBe(false);
    expect(d).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'challengeFailed' });
    // Without challenges the same change of size among aligning frames still counts as motion.
    const aligning: EvidenceFrame[] = [0, 800, 1600].map((t) => ({ t, role: 'between' }));
    const closer = aligning.map((_, k) => frame([{ cx: 320, eyeDistance: 70 + 12 * k }], k));
    const none = decideLiveness(evidence(aligning, { challenges: [] }), closer);
    expect(none.report.motion!.flat).toBe(true);
    expect(none.outcome).toBe('deepfakeDetected');
  });

  it('calls a picture turned in front of the camera a spoof though its nose moves a little', () => {
    // A flat picture turned by a hand: perspective moves the nose keypoint by up to 13° of "yaw"
    // (the cut-out fixture) while the ears stay put and the face travels; a turn is 20°.
    const { frames } = honest();
    const shift = 80 * NOSE_DEPTH * Math.tan((12 * Math.PI) / 180);
    const turned = frames.map((_, k) => {
      const f = frame([{ cx: 200 + 50 * k, eyeDistance: 80 }], k);
      const face = f.faces[0]!;
      const keypoints = face.keypoints.map((p, i) =>
        i === 2 ? { x: p.x + (k % 2) * shift, y: p.y } : p,
      );
      return { ...f, faces: [{ ...face, keypoints }] };
    });
    const d = decideLiveness(evidence(frames), turned);
    expect(d.report.pose!.yawMax - d.report.pose!.yawMin).toBeGreaterThan(11);
    expect(d.report.motion!.flat).toBe(true);
    expect(d.outcome).toBe('deepfakeDetected');
  });

  it('without challenges, calls a face the page never fitted that moved without turning a flat picture', () => {
    // The page's aligning frames: `between`, 800 ms apart, no baseline (it never fitted the face).
    const frames: EvidenceFrame[] = [0, 800, 1600].map((t) => ({ t, role: 'between' }));
    const none = { challenges: [] };
    const moved = frames.map((_, k) => frame([{ cx: 220 + 60 * k, eyeDistance: 70 + 8 * k }], k));
    const d = decideLiveness(evidence(frames, none), moved);
    expect(d.report.motion!.flat).toBe(true);
    expect(d).toMatchObject({ outcome: 'deepfakeDetected', classification: 'attack' });
    // A user who moved into the oval the same way and was then fitted (a baseline) is no picture:
    // they blink while the page watches, and pass.
    const fitted: EvidenceFrame[] = [
      ...frames,
      ...[2400, 2600, 2800, 3000].map((t, k): EvidenceFrame => ({
        t,
        role: k === 0 ? 'baseline' : 'between',
      })),
    ];
    const withBaseline = [
      ...moved,
      ...[0.37, 0.36, 0.2, 0.37].map((o, k) =>
        withEyes(frame([{ cx: 400, eyeDistance: 94 }], 3 + k), o),
      ),
    ];
    expect(decideLiveness(evidence(fitted, none), withBaseline).outcome).toBe('livenessDetected');
    // A head that turns while it moves is no picture either; never fitted, it is no pass (below).
    const head = frames.map((_, k) => frame([{ cx: 220 + 60 * k, yawDeg: [0, 18, -12][k] }], k));
    const notFitted = { outcome: 'inconclusive', inconclusiveReason: 'timeout' };
    expect(decideLiveness(evidence(frames, none), head)).toMatchObject(notFitted);
    expect(
      decideLiveness(evidence(frames, none), moved, { flatMotionAsSpoof: false }),
    ).toMatchObject(notFitted);
  });

  it('without challenges, does not pass a capture the page never fitted, however little it moved', () => {
    // The cut-out that passed face_scan (docs/liveness-fixtures.md): three aligning frames in which
    // the hand moved it 0.49 face widths, under the flat-motion rule's 0.5, the pose never turning.
    const frames: EvidenceFrame[] = [0, 800, 1600].map((t) => ({ t, role: 'between' }));
    const none = { challenges: [] };
    const held = frames.map((_, k) =>
      frame([{ cx: 300 + [0, 25, 40][k]!, eyeDistance: 70 + 3 * k, yawDeg: [-1, -3, -2][k] }], k),
    );
    const d = decideLiveness(evidence(frames, none), held);
    expect(d.report.motion!.flat).toBe(false);
    expect(d).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'timeout',
      classification: 'failure',
    });
    // The same frames with the page's baseline (it fitted the face in the oval) are judged on:
    // then the blink decides (below).
    const fitted: EvidenceFrame[] = [...frames.slice(0, 2), { t: 1600, role: 'baseline' }];
    expect(decideLiveness(evidence(fitted, none), held)).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'noBlink',
    });
  });

  it('takes a between frame filmed while the challenge was asked when the page’s own frame misses it', () => {
    const plan: [EvidenceFrame, Shot[]][] = [
      [{ t: 0, role: 'baseline' }, [{}]],
      // The page missed the turn: no challenge frame for it, but the server sees it here.
      [{ t: 1200, role: 'between' }, [{ yawDeg: 31 }]],
      // comeCloser taken mid-turn (refused off axis), then done facing the camera.
      [{ t: 3000, role: 'challenge', challengeIndex: 1 }, [{ eyeDistance: 110, yawDeg: 30 }]],
      [{ t: 3800, role: 'between' }, [{ eyeDistance: 112 }]],
      [{ t: 6500, role: 'challenge', challengeIndex: 2 }, [{ yawDeg: -28 }]],
    ];
    const d = decidePlan(plan);
    expectAllMetBy(d, [1, 3, 4]);
  });

  it('measures against the first frontal frame when the page took its baseline mid-turn', () => {
    const plan: [EvidenceFrame, Shot[]][] = [
      // The page's baseline caught the head turned 35° to the left.
      [{ t: 0, role: 'baseline' }, [{ yawDeg: 35 }]],
      [{ t: 1500, role: 'challenge', challengeIndex: 0 }, [{ yawDeg: 30 }]],
      [{ t: 2500, role: 'between' }, [{ yawDeg: 2 }]],
      [{ t: 4000, role: 'challenge', challengeIndex: 1 }, [{ eyeDistance: 110 }]],
      [{ t: 6500, role: 'challenge', challengeIndex: 2 }, [{ yawDeg: -28 }]],
    ];
    const d = decidePlan(plan);
    expectAllMetBy(d, [1, 3, 4]);
  });

  it('never counts a between frame taken after the page moved to a later challenge', () => {
    const plan: [EvidenceFrame, Shot[]][] = [
      [{ t: 0, role: 'baseline' }, [{}]],
      [{ t: 1500, role: 'challenge', challengeIndex: 0 }, [{ yawDeg: 2 }]],
      [{ t: 3000, role: 'challenge', challengeIndex: 1 }, [{ eyeDistance: 110 }]],
      // The turn comes only after comeCloser was asked: too late for challenge 0.
      [{ t: 3800, role: 'between' }, [{ yawDeg: 31 }]],
      [{ t: 6500, role: 'challenge', challengeIndex: 2 }, [{ yawDeg: -28 }]],
    ];
    const d = decidePlan(plan);
    expect(d.report.challenges[0]).toMatchObject({ challenge: 'turnLeft', met: false });
    expect(d).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'challengeFailed' });
  });

  it('requires the challenges in the order asked', () => {
    const { frames, results } = honest();
    // The turnLeft frame is taken after the comeCloser frame.
    const reordered = frames.map((f) => (f.challengeIndex === 0 ? { ...f, t: 4500 } : f));
    expect(decideLiveness(evidence(reordered), results).report.challenges[1]!.met).toBe(false);
    expect(decideLiveness(evidence(reordered), results).inconclusiveReason).toBe('challengeFailed');
  });

  it('does the challenges the server picked, whatever the page claims', () => {
    const { frames, results } = honest();
    const d = decideLiveness(
      evidence(frames, { challenges: ['turnRight', 'comeCloser', 'turnLeft'] }),
      results,
    );
    expect(d.inconclusiveReason).toBe('challengeFailed');
  });

  it('gives noFace when most frames have no face', () => {
    const { frames } = honest();
    const empty = frames.map((_, k) => frame(k === 0 ? [{}] : [], k));
    expect(decideLiveness(evidence(frames), empty)).toMatchObject({ outcome: 'noFace' });
    expect(decideLiveness(evidence(frames), empty).inconclusiveReason).toBeUndefined();
  });

  it('gives multipleFaces when two people are in any frame', () => {
    const { frames, results } = honest();
    const two = [...results];
    two[2] = frame([{ cx: 200 }, { cx: 450, person: 1 }]);
    expect(decideLiveness(evidence(frames), two)).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'multipleFaces',
    });
    expect(decideLiveness(evidence(frames), two).report.facesPerFrame[2]).toBe(2);
  });

  it('ignores a weak second detection', () => {
    const { frames, results } = honest();
    const withGhost = [...results];
    withGhost[2] = frame([{}, { cx: 560, eyeDistance: 20, score: 0.3 }]);
    expect(decideLiveness(evidence(frames), withGhost).outcome).toBe('livenessDetected');
  });

  it('gives poorQuality for dark frames, tiny faces, a lost face or unreadable frames', () => {
    const { frames, results } = honest();
    const dark = results.map((r) => ({ ...r, brightness: 20 }));
    expect(decideLiveness(evidence(frames), dark).inconclusiveReason).toBe('poorQuality');
    const tiny = frames.map((_, k) => frame([{ eyeDistance: 20 }], k));
    expect(decideLiveness(evidence(frames), tiny).inconclusiveReason).toBe('poorQuality');
    const lost = [...results];
    lost[4] = frame([]);
    expect(decideLiveness(evidence(frames), lost).inconclusiveReason).toBe('poorQuality');
    const broken: (FrameAnalysis | FrameFailure)[] = results.map((r, k) =>
      k < 4 ? { error: 'not an image' } : r,
    );
    const d = decideLiveness(evidence(frames), broken);
    expect(d.inconclusiveReason).toBe('poorQuality');
    expect(d.report.unreadableFrames).toBe(4);
  });

  it('gives personChanged when the face becomes someone else midway', () => {
    const { frames } = honest();
    const swapped = honest().results.map((r, k) =>
      k >= 3 ? { ...r, faces: r.faces.map((f) => ({ ...f, embedding: embedding(5, k) })) } : r,
    );
    const d = decideLiveness(evidence(frames), swapped);
    expect(d).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'personChanged' });
    expect(d.report.similarity!.min).toBeLessThan(0.6);
  });

  it('gives deepfakeDetected when the antispoof or liveness models say so', () => {
    const { frames } = honest();
    const lowReal = honest().results.map((r) => ({
      ...r,
      faces: r.faces.map((f) => ({ ...f, real: 0.05 })),
    }));
    expect(decideLiveness(evidence(frames), lowReal).outcome).toBe('deepfakeDetected');
    const lowLive = honest().results.map((r) => ({
      ...r,
      faces: r.faces.map((f) => ({ ...f, live: 0.1 })),
    }));
    expect(decideLiveness(evidence(frames), lowLive).outcome).toBe('deepfakeDetected');
    expect(decideLiveness(evidence(frames), lowLive, { minLive: 0.05 }).outcome).toBe(
      'livenessDetected',
    );
  });

  it('gives timeout when the evidence comes too late or spans too long', () => {
    const { frames, results } = honest();
    expect(
      decideLiveness(evidence(frames, { receivedAt: 1_000_000 + 76_000 }), results)
        .inconclusiveReason,
    ).toBe('timeout');
    expect(
      decideLiveness(evidence(frames, { timeoutSeconds: 5 }), results).inconclusiveReason,
    ).toBe('timeout');
  });

  it('gives cameraUnavailable when the page had no camera, even with frames', () => {
    const { frames, results } = honest();
    expect(decideLiveness(evidence(frames, { cameraUnavailable: true }), results)).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'cameraUnavailable',
    });
    expect(decideLiveness(evidence([]), []).inconclusiveReason).toBe('poorQuality');
  });

  it('refuses analyses that do not pair with the frames', () => {
    const { frames, results } = honest();
    expect(() => decideLiveness(evidence(frames), results.slice(1))).toThrow(/pair up/);
  });
});

describe('decideLiveness: presentation attacks', () => {
  /** The frame job's cues: a straight edge under the face and on two more sides, or none. */
  const cues = (enclosed: boolean): FrameCues => ({
    scale: 0.4,
    border: {
      sides: {
        top: { support: enclosed ? 0.9 : 0.1, distance: 0.4, angle: 0 },
        bottom: { support: enclosed ? 0.95 : 0.1, distance: 1.2, angle: 0 },
        left: { support: enclosed ? 0.9 : 0.1, distance: 0.3, angle: 0 },
        right: null,
      },
      found: enclosed ? 3 : 0,
      enclosed,
    },
    text: { lines: 0, where: null },
    spectrum: { size: 64, peakRatio: 8, peak: null },
    ms: 10,
  });
  const withCues = (results: FrameAnalysis[], enclosed: boolean): LivenessFrame[] =>
    results.map((r) => ({ ...r, cues: cues(enclosed) }));

  it('refuses every challenge met when the face is in a frame: deepfakeDetected, an attack', () => {
    const { frames, results } = honest();
    const d = decideLiveness(evidence(frames), withCues(results, true));
    expect(d.outcome).toBe('deepfakeDetected');
    expect(d.classification).toBe('attack');
    expect(d.report.presentation?.attackBy).toEqual(['border']);
    expect(d.report.presentation?.checks.find((c) => c.name === 'border')).toMatchObject({
      score: 1,
      verdict: 'attack',
      frames: frames.length,
    });
  });

  it('classifies a pass and a plain failure as such, with every check recorded', () => {
    const { frames, results } = honest();
    const pass = decideLiveness(evidence(frames), withCues(results, false));
    expect(pass.classification).toBe('pass');
    expect(pass.report.presentation?.attack).toBe(false);
    const still = decidePlan([
      [{ t: 0, role: 'baseline' }, [{}]],
      [{ t: 1500, role: 'challenge', challengeIndex: 0 }, [{ yawDeg: 2 }]],
    ]);
    expect([still.outcome, still.classification]).toEqual(['inconclusive', 'failure']);
  });

  it('an attack outranks a timeout, a face too small and a challenge undone', () => {
    const plan: [EvidenceFrame, Shot[]][] = [
      [{ t: 0, role: 'baseline' }, [{ eyeDistance: 20 }]],
      [{ t: 800, role: 'between' }, [{ eyeDistance: 20 }]],
      [{ t: 1600, role: 'between' }, [{ eyeDistance: 20 }]],
    ];
    const late = evidence(
      plan.map((p) => p[0]),
      { receivedAt: 1_000_000 + 200_000 },
    );
    const results = plan.map((p, k) => frame(p[1], k));
    expect(decideLiveness(late, results).inconclusiveReason).toBe('timeout');
    const d = decideLiveness(late, withCues(results, true));
    expect([d.outcome, d.classification]).toEqual(['deepfakeDetected', 'attack']);
  });

  it('the models scoring a spoof is an attack too, recorded as their checks', () => {
    const { frames } = honest();
    const results = frames.map((_, k) => frame([{ real: 0.05 }], k));
    const d = decideLiveness(evidence(frames), results);
    expect([d.outcome, d.classification]).toEqual(['deepfakeDetected', 'attack']);
    expect(d.report.presentation?.attackBy).toEqual(['antispoofModel']);
  });
});

describe('decideLiveness without challenges: the blink', () => {
  const none = { challenges: [] };
  /** The page's baseline, then a watch frame every 200 ms, eyes open as given (null: no mesh). */
  function watched(openness: (number | null)[], shot: Shot = {}) {
    const frames = openness.map((_, k): EvidenceFrame => ({
      t: 200 * k,
      role: k === 0 ? 'baseline' : 'between',
    }));
    const results = openness.map((o, k) =>
      o === null ? frame([shot], k) : withEyes(frame([shot], k), o),
    );
    return { frames, results };
  }

  it('passes a fitted capture whose eyes closed once: open, open, closed, open', () => {
    const { frames, results } = watched([0.37, 0.38, 0.21, 0.37]);
    const d = decideLiveness(evidence(frames, none), results);
    expect([d.outcome, d.classification]).toEqual(['livenessDetected', 'pass']);
    expect(d.report.blink).toMatchObject({
      readings: 4,
      blink: true,
      frameIndex: 2,
      openness: [0.37, 0.38, 0.21, 0.37],
    });
    expect(d.report.blink!.median).toBeCloseTo(0.37, 9);
    expect(d.report.blink!.ratio).toBeCloseTo(0.21 / 0.37, 9);
  });

  it('gives noBlink, a failure, when the eyes never closed', () => {
    const { frames, results } = watched([0.37, 0.36, 0.38, 0.37, 0.35]);
    const d = decideLiveness(evidence(frames, none), results);
    expect(d).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'noBlink',
      classification: 'failure',
    });
    expect(d.report.blink).toMatchObject({ readings: 5, blink: false });
    // A still picture never changes at all.
    const still = watched([0.32, 0.32, 0.32, 0.32]);
    expect(decideLiveness(evidence(still.frames, none), still.results).inconclusiveReason).toBe(
      'noBlink',
    );
  });

  it('gives noBlink without eye readings: frames without the mesh, or too few of them', () => {
    const bare = watched([null, null, null, null]);
    const d = decideLiveness(evidence(bare.frames, none), bare.results);
    expect(d.inconclusiveReason).toBe('noBlink');
    expect(d.report.blink).toMatchObject({ readings: 0, blink: null, frameIndex: null });
    // One baseline frame, as the page sent before it watched for a blink.
    const one = watched([0.37]);
    expect(decideLiveness(evidence(one.frames, none), one.results).inconclusiveReason).toBe(
      'noBlink',
    );
  });

  it('reads the blink from the baseline on: a dip while the page was still aligning is not it', () => {
    const aligning: EvidenceFrame[] = [
      { t: 0, role: 'between' },
      { t: 800, role: 'baseline' },
      { t: 1000, role: 'between' },
      { t: 1200, role: 'between' },
    ];
    const results = [0.2, 0.37, 0.37, 0.36].map((o, k) => withEyes(frame([{}], k), o));
    const d = decideLiveness(evidence(aligning, none), results);
    expect(d.inconclusiveReason).toBe('noBlink');
    expect(d.report.blink).toMatchObject({ readings: 3, openness: [0.37, 0.37, 0.36] });
  });

  it('needs no blink when challenges were asked: the movements are the evidence', () => {
    const { frames, results } = honest();
    const d = decideLiveness(evidence(frames), results);
    expect(d.outcome).toBe('livenessDetected');
    expect(d.report.blink).toBeNull();
  });

  it('a presentation attack still wins over noBlink', () => {
    const { frames, results } = watched([0.37, 0.37, 0.37, 0.37], { real: 0.05 });
    const d = decideLiveness(evidence(frames, none), results);
    expect([d.outcome, d.classification]).toEqual(['deepfakeDetected', 'attack']);
    expect(d.report.presentation?.attackBy).toEqual(['antispoofModel']);
  });
});
