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
  const phasesSeen = new Set<RunState['phase']>();
  for (let t = 0; t <= ms && state.phase !== 'done'; t += everyMs) {
    const step = advanceRun(
      state,
      { faces: faceAt(t), frame, brightness: 120, now: t },
      challenges,
      options,
    );
    state = step.state;
    phasesSeen.add(state.phase);
    step.hints.forEach((h) => hintsSeen.add(h));
    if (step.capture) captured.push({ ...step.capture, t });
  }
  return { state, captured, hintsSeen, phasesSeen };
}

describe('advanceRun', () => {
  it('takes the baseline once the face has fitted the oval for a moment', () => {
    const { captured } = play([], () => [frontal()], 2000);
    // The first frame at least steadyMs (600) after the face fitted, frames being 33 ms apart.
    expect(captured[0]).toEqual({ role: 'baseline', t: Math.ceil(600 / 33) * 33 });
    expect(captured.filter((c) => c.role === 'baseline')).toHaveLength(1);
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

  describe('without challenges: watching for a blink after the baseline', () => {
    const betweenAfter = (captured: (CaptureLabel & { t: number })[]) => {
      const baseline = captured.find((c) => c.role === 'baseline')!;
      return captured.filter((c) => c.t > baseline.t).map((c) => c.t - baseline.t);
    };

    it('takes 15 between frames 200 ms apart over 3 s, then ends completed', () => {
      // Readings 50 ms apart: the baseline at 600 ms, then a frame on each 200 ms of the watch.
      const { state, captured, phasesSeen } = play([], () => [frontal()], 10_000, {}, 50);
      expect(captured[0]).toEqual({ role: 'baseline', t: 600 });
      expect(captured.slice(1).every((c) => c.role === 'between')).toBe(true);
      expect(betweenAfter(captured)).toEqual(Array.from({ length: 15 }, (_, i) => 200 * (i + 1)));
      expect(phasesSeen.has('watching')).toBe(true);
      expect(state).toMatchObject({ phase: 'done', ended: 'completed' });
    });

    it('keeps to 200 ms on average when readings do not fall on it', () => {
      // 33 ms readings: each frame at the first reading after its time, never bunched up.
      const { state, captured } = play([], () => [frontal()], 10_000);
      const after = betweenAfter(captured);
      expect(after).toHaveLength(15);
      const gaps = after.map((t, i) => t - (after[i - 1] ?? 0));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(200 - 33);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(200 + 33);
      expect(after.at(-1)).toBeLessThan(3000 + 33);
      expect(state).toMatchObject({ phase: 'done', ended: 'completed' });
    });

    it('on a slow device takes a frame at every reading, for the same 3 s', () => {
      // One reading every 400 ms (the detection pace's longest gap): each one is a frame.
      const { state, captured } = play([], () => [frontal()], 10_000, {}, 400);
      expect(captured[0]).toEqual({ role: 'baseline', t: 800 });
      expect(betweenAfter(captured)).toEqual([400, 800, 1200, 1600, 2000, 2400, 2800, 3200]);
      expect(state).toMatchObject({ phase: 'done', ended: 'completed' });
      // 250 ms apart: still every reading.
      const at250 = betweenAfter(play([], () => [frontal()], 10_000, {}, 250).captured);
      expect(at250).toEqual(Array.from({ length: 12 }, (_, i) => 250 * (i + 1)));
    });

    it('keeps taking the frames, with the blocking hints, when the face leaves or another comes', () => {
      const other = syntheticFace({ eyeDistance: 80, cx: 100 });
      // Baseline at 600 ms; from 1000 ms no face, from 2000 ms two faces.
      const head = (t: number) => (t < 1000 ? [frontal()] : t < 2000 ? [] : [frontal(), other]);
      const { state, captured, hintsSeen } = play([], head, 10_000, {}, 50);
      expect(betweenAfter(captured)).toHaveLength(15);
      expect(hintsSeen).toEqual(new Set(['noFace', 'onePerson']));
      expect(state).toMatchObject({ phase: 'done', ended: 'completed' });
    });

    it('takes no more watch frames than allowed', () => {
      const { state, captured } = play([], () => [frontal()], 10_000, { maxWatch: 4 }, 50);
      expect(betweenAfter(captured)).toEqual([200, 400, 600, 800]);
      expect(state).toMatchObject({ phase: 'done', ended: 'completed' });
    });

    it('ends on the time limit during the watch, with the frames taken so far', () => {
      const { state, captured } = play([], () => [frontal()], 10_000, { timeoutMs: 1500 }, 50);
      expect(state).toMatchObject({ phase: 'done', ended: 'timeout' });
      // Baseline at 600, frames at 800–1400; the reading at 1550 is past the limit.
      expect(betweenAfter(captured)).toEqual([200, 400, 600, 800]);
    });

    it('does not watch when there are challenges', () => {
      const { phasesSeen, captured } = play(['turnLeft'], () => [frontal()], 5000, {}, 50);
      expect(phasesSeen.has('watching')).toBe(false);
      const after = betweenAfter(captured);
      // Between frames as before: betweenMs (800) apart.
      expect(after).toEqual([800, 1600, 2400, 3200, 4000]);
    });
  });
});
