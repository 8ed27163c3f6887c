import { describe, expect, it } from 'vitest';
import type { Challenge, FaceObservation } from '../../core/liveness';
import { syntheticFace } from '../../core/liveness/synthetic';
import { advanceRun, INITIAL_RUN, type CaptureLabel, type RunState } from './captureRun';

const frame = { width: 640, height: 480 };
// Eye distance 80 gives a box 176 px wide: scale 0.37, inside the oval's 0.30–0.75.
const frontal = () => syntheticFace({ eyeDistance: 80 });

/** Feeds frames 33 ms apart and returns the labels captured, with their times, and the end state. */
function play(
  challenges: Challenge[],
  faceAt: (ms: number) => FaceObservation[],
  ms: number,
  options = {},
  everyMs = 33,
) {
  let state: RunState = INITIAL_RUN;
  const captured: (CaptureLabel & { t: number })[] = [];
  const hintsSeen = new Set<string>();
  for (let t = 0; t <= ms && state.phase !== 'done'; t += everyMs) {
    const step = advanceRun(
      state,
      { faces: faceAt(t), frame, brightness: 120, now: t },
      challenges,
      options,
    );
    state = step.state;
    step.hints.forEach((h) => hintsSeen.add(h));
    if (step.capture) captured.push({ ...step.capture, t });
  }
  return { state, captured, hintsSeen };
}

describe('advanceRun', () => {
  it('takes the baseline once the face has fitted the oval for a moment', () => {
    const { captured } = play([], () => [frontal()], 2000);
    // The first frame at least steadyMs (600) after the face fitted, frames being 33 ms apart.
    expect(captured).toEqual([{ role: 'baseline', t: Math.ceil(600 / 33) * 33 }]);
  });

  it('waits for the head to face the camera before taking the baseline', () => {
    // Turned 30° for the first second (a user still looking aside), then frontal.
    const head = (t: number) => [
      t < 1000 ? syntheticFace({ eyeDistance: 80, yawDeg: 30 }) : frontal(),
    ];
    const { captured, hintsSeen } = play([], head, 3000);
    const baseline = captured.find((c) => c.role === 'baseline');
    expect(baseline?.t).toBeGreaterThanOrEqual(1600);
    expect(hintsSeen.has('lookStraight')).toBe(true);
  });

  it('keeps hinting while the face is too small, with a few frames for the server', () => {
    const small = syntheticFace({ eyeDistance: 30 });
    const { state, captured, hintsSeen } = play(['turnLeft'], () => [small], 6000);
    // maxAligning (3) frames, betweenMs (800) apart from the first one.
    expect(captured).toEqual([
      { role: 'between', t: 0 },
      { role: 'between', t: 825 },
      { role: 'between', t: 1650 },
    ]);
    expect(state.phase).toBe('aligning');
    expect([...hintsSeen]).toEqual(['moveCloser']);
  });

  it('follows a head doing the challenges in order, with frames between', () => {
    // Frontal until 1.5 s, then turns to the user's left, back, then comes closer at 4 s.
    const head = (t: number) => [
      t < 1500
        ? frontal()
        : t < 2500
          ? syntheticFace({ eyeDistance: 80, yawDeg: 35 })
          : t < 4000
            ? frontal()
            : syntheticFace({ eyeDistance: 110 }),
    ];
    const { state, captured } = play(['turnLeft', 'comeCloser'], head, 8000);
    expect(state).toMatchObject({ phase: 'done', ended: 'completed', index: 2 });
    const labels = captured.map((c) => (c.role === 'challenge' ? `c${c.challengeIndex}` : c.role));
    expect(labels[0]).toBe('baseline');
    expect(labels.filter((l) => l.startsWith('c'))).toEqual(['c0', 'c1']);
    expect(captured.find((c) => c.challengeIndex === 0)!.t).toBeGreaterThanOrEqual(1500);
    expect(captured.find((c) => c.challengeIndex === 1)!.t).toBeGreaterThanOrEqual(4000);
    expect(labels.filter((l) => l === 'between').length).toBeGreaterThan(0);
  });

  it('holds a met challenge and takes one more frame when the movement has grown by then', () => {
    // Comes closer from 1.5 s: just past the threshold (1.3×) at first, then 1.6× and held.
    const head = (t: number) => [
      t < 1500
        ? frontal()
        : t < 1600
          ? syntheticFace({ eyeDistance: 104 })
          : syntheticFace({ eyeDistance: 128 }),
    ];
    const { captured } = play(['comeCloser'], head, 5000);
    const shots = captured.filter((c) => c.role === 'challenge');
    expect(shots.map((c) => c.challengeIndex)).toEqual([0, 0]);
    // The second one once grown, half a hold (300 ms) after the first, not at once.
    expect(shots[1]!.t - shots[0]!.t).toBeGreaterThanOrEqual(300);
    expect(shots[1]!.t - shots[0]!.t).toBeLessThan(400);

    // Held still right at the threshold: nothing more to show, no second frame.
    const still = (t: number) => [t < 1500 ? frontal() : syntheticFace({ eyeDistance: 104 })];
    const once = play(['comeCloser'], still, 5000).captured.filter((c) => c.role === 'challenge');
    expect(once).toHaveLength(1);
  });

  it('holds a met challenge for a few readings however slow the detector is', () => {
    // A slow phone: one reading every 400 ms. The hold lasts 3 readings (1.2 s), not 600 ms.
    const head = (t: number) => [
      t < 1500
        ? frontal()
        : t < 2000
          ? syntheticFace({ eyeDistance: 104 })
          : syntheticFace({ eyeDistance: 128 }),
    ];
    const { captured, state } = play(['comeCloser'], head, 8000, {}, 400);
    const shots = captured.filter((c) => c.role === 'challenge');
    expect(shots.map((c) => c.t)).toEqual([1600, 2000]);
    // Still on the challenge two readings (800 ms) after it was met; done at the third.
    expect(play(['comeCloser'], head, 2400, {}, 400).state.phase).toBe('challenge');
    expect(play(['comeCloser'], head, 2800, {}, 400).state.phase).toBe('done');
    expect(state).toMatchObject({ phase: 'done', ended: 'completed' });
  });

  it('on a slow device keeps the peak of a movement met on its way up', () => {
    // One reading every 400 ms: met on the way up (22°), the peak (35°) in the hold, then back.
    const yaw = (t: number) => (t < 1500 ? 0 : t < 1900 ? 22 : t < 2300 ? 35 : t < 2700 ? 22 : 0);
    const head = (t: number) => [syntheticFace({ eyeDistance: 80, yawDeg: yaw(t) })];
    const { captured } = play(['turnLeft'], head, 6000, {}, 400);
    const shots = captured.filter((c) => c.role === 'challenge').map((c) => yaw(c.t));
    expect(shots).toEqual([22, 35]);
  });

  it('does not count a turn the wrong way', () => {
    const head = (t: number) => [
      t < 1000 ? frontal() : syntheticFace({ eyeDistance: 80, yawDeg: -35 }),
    ];
    const { state, captured } = play(['turnLeft'], head, 5000, { maxBetween: 3 });
    expect(state.phase).toBe('challenge');
    expect(captured.filter((c) => c.role === 'challenge')).toEqual([]);
    expect(captured.filter((c) => c.role === 'between')).toHaveLength(3);
  });

  it('does not count a challenge while two faces are seen, and says so', () => {
    const turned = syntheticFace({ eyeDistance: 80, yawDeg: 35 });
    const other = syntheticFace({ eyeDistance: 80, cx: 100 });
    const head = (t: number) => (t < 1000 ? [frontal()] : [turned, other]);
    const { state, hintsSeen } = play(['turnLeft'], head, 3000, { maxCandidates: 0 });
    expect(state.phase).toBe('challenge');
    expect(hintsSeen.has('onePerson')).toBe(true);
  });

  it('takes the best frames of a turn it never sees as met, then moves on', () => {
    // The turn grows to 15°, short of the 20° needed: frames at 10° and 15° are worth sending.
    const head = (t: number) => [
      syntheticFace({ eyeDistance: 80, yawDeg: t < 1000 ? 0 : t < 2000 ? 10 : 15 }),
    ];
    const { state, captured } = play(['turnLeft', 'comeCloser'], head, 20_000, {
      challengeMs: 4000,
      maxBetween: 0,
    });
    const firstChallenge = captured.filter((c) => c.challengeIndex === 0);
    expect(firstChallenge.map((c) => c.t >= 1000 && c.t < 2000)).toEqual([true, false]);
    expect(state).toMatchObject({ phase: 'done', ended: 'completed', index: 2 });
    // Nothing for comeCloser: the head never came closer.
    expect(captured.filter((c) => c.challengeIndex === 1)).toEqual([]);
  });

  it('takes no more candidates than allowed', () => {
    const head = (t: number) => [
      syntheticFace({ eyeDistance: 80, yawDeg: t < 1000 ? 0 : Math.min(19, (t - 1000) / 100) }),
    ];
    const { captured } = play(['turnLeft'], head, 5000, { maxCandidates: 1, maxBetween: 0 });
    expect(captured.filter((c) => c.role === 'challenge')).toHaveLength(1);
  });

  it('uses the thresholds it is given', () => {
    const head = (t: number) => [syntheticFace({ eyeDistance: 80, yawDeg: t < 1000 ? 0 : 12 })];
    const strict = play(['turnLeft'], head, 3000, { challengeMs: 60_000 });
    expect(strict.state.phase).toBe('challenge');
    const lenient = play(['turnLeft'], head, 3000, { thresholds: { turnDegrees: 10 } });
    expect(lenient.state).toMatchObject({ phase: 'done', ended: 'completed' });
  });

  it('ends on the time limit with what it has', () => {
    const { state } = play(['turnRight'], () => [frontal()], 5000, {
      timeoutMs: 3000,
      challengeMs: 60_000,
    });
    expect(state).toMatchObject({ phase: 'done', ended: 'timeout' });
  });

  it('sends frames of a scene without a face when time runs out', () => {
    const { state, captured } = play(['turnLeft'], () => [], 5000, { timeoutMs: 3000 });
    expect(state).toMatchObject({ phase: 'done', ended: 'timeout' });
    expect(captured.map((c) => c.role)).toEqual(['between', 'between', 'between']);
  });
});
