import { describe, expect, it } from 'vitest';
import type { Position } from '../api/types';
import {
  cameraOn,
  INITIAL_LIVENESS,
  livenessStep,
  runBudget,
  type LivenessEvent,
  type LivenessPhase,
  type OpenAttempt,
} from './livenessState';

const attempt = (attemptId: string): OpenAttempt => ({
  attemptId,
  challenges: ['turnLeft', 'comeCloser', 'turnRight'],
  maxFrames: 24,
  attempt: 1,
  maxAttempts: 3,
});
const position: Position = { nodeId: 'end', nodeType: 'end', status: 'complete', path: [] };
const run = (events: LivenessEvent[], from: LivenessPhase = INITIAL_LIVENESS) =>
  events.reduce(livenessStep, from);

describe('livenessStep', () => {
  it('goes through one attempt: ready, started, captured, finished, decided', () => {
    const seen: string[] = [];
    let s = INITIAL_LIVENESS;
    for (const e of [
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'done' },
      { type: 'FINISHED', attemptId: 'la_1', status: 'analysing' },
      { type: 'DECIDED', position },
    ] satisfies LivenessEvent[]) {
      s = livenessStep(s, e);
      seen.push(s.phase);
    }
    expect(seen).toEqual(['starting', 'capturing', 'sending', 'analysing', 'decided']);
    expect(s).toEqual({ phase: 'decided', position });
  });

  it('keeps how the capture ended for the finish call', () => {
    const s = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'timeout' },
    ]);
    expect(s).toMatchObject({ phase: 'sending', ended: 'timeout' });
  });

  it('starts a new attempt when the camera comes back during the challenges', () => {
    const s = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'READY' },
    ]);
    expect(s).toEqual({ phase: 'starting', request: 2 });
    // The answer to the first request is late: it must not become the attempt.
    expect(livenessStep(s, { type: 'STARTED', request: 1, attempt: attempt('la_1') })).toBe(s);
    expect(
      livenessStep(s, { type: 'STARTED', request: 2, attempt: attempt('la_2') }),
    ).toMatchObject({
      phase: 'capturing',
      attempt: { attemptId: 'la_2' },
    });
  });

  it('ignores a second READY while an attempt is being asked for, and after the capture', () => {
    const starting = run([{ type: 'READY' }]);
    expect(livenessStep(starting, { type: 'READY' })).toBe(starting);
    const sending = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'done' },
    ]);
    expect(livenessStep(sending, { type: 'READY' })).toBe(sending);
  });

  it('ignores the end of a capture or a finish that belongs to another attempt', () => {
    const capturing = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_2') },
    ]);
    expect(
      livenessStep(capturing, { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'done' }),
    ).toBe(capturing);
    const sending = livenessStep(capturing, {
      type: 'CAPTURE_DONE',
      attemptId: 'la_2',
      ended: 'done',
    });
    expect(
      livenessStep(sending, { type: 'FINISHED', attemptId: 'la_1', status: 'analysing' }),
    ).toBe(sending);
  });

  it('reports a missing camera with the attempt it has, or asks for one', () => {
    expect(run([{ type: 'NO_CAMERA' }])).toEqual({ phase: 'noCamera', request: 1 });
    const withAttempt = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'NO_CAMERA' },
    ]);
    expect(withAttempt).toEqual({ phase: 'noCamera', request: 2, attempt: attempt('la_1') });
    // The attempt asked for on the way is kept for the finish call.
    const asked = run([
      { type: 'NO_CAMERA' },
      { type: 'STARTED', request: 1, attempt: attempt('la_9') },
    ]);
    expect(asked).toEqual({ phase: 'noCamera', request: 1, attempt: attempt('la_9') });
  });

  it('does not take back frames already sent for a missing camera', () => {
    const analysing = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'done' },
      { type: 'FINISHED', attemptId: 'la_1', status: 'analysing' },
    ]);
    expect(livenessStep(analysing, { type: 'NO_CAMERA' })).toBe(analysing);
  });

  it('retries the same step after a lost connection, with a new request number', () => {
    const starting = run([{ type: 'READY' }]);
    const problem = livenessStep(starting, { type: 'FAILED', problem: 'network' });
    expect(problem).toEqual({ phase: 'problem', problem: 'network', retry: starting });
    expect(cameraOn(problem)).toBe(true);
    expect(livenessStep(problem, { type: 'RETRY' })).toEqual({ phase: 'starting', request: 2 });

    const analysing = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'done' },
      { type: 'FINISHED', attemptId: 'la_1', status: 'analysing' },
    ]);
    const lost = livenessStep(analysing, { type: 'FAILED', problem: 'network' });
    expect(cameraOn(lost)).toBe(true);
    expect(livenessStep(lost, { type: 'RETRY' })).toMatchObject({
      phase: 'analysing',
      attempt: { attemptId: 'la_1' },
    });
  });

  it('starts a new attempt on the open camera after an unexpected refusal of the finish', () => {
    const sending = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'done' },
    ]);
    const problem = livenessStep(sending, { type: 'FAILED', problem: 'unexpected' });
    expect(cameraOn(problem)).toBe(true);
    const again = livenessStep(problem, { type: 'RETRY' });
    // A new request number (renumbered on the retry): a late answer to the old one cannot count.
    expect(again).toEqual({ phase: 'starting', request: 3 });
    expect(cameraOn(again)).toBe(true);
  });

  it('a failure another try may fix shows its reason; "Try again" asks for the next attempt', () => {
    const retry = {
      reason: 'challengeFailed' as const,
      attemptsLeft: 2,
      challenge: 'turnLeft' as const,
    };
    const analysing = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'done' },
      { type: 'FINISHED', attemptId: 'la_1', status: 'analysing' },
    ]);
    // The answer of another attempt changes nothing.
    expect(livenessStep(analysing, { type: 'RETRY_OFFERED', attemptId: 'la_0', retry })).toBe(
      analysing,
    );
    const offered = livenessStep(analysing, { type: 'RETRY_OFFERED', attemptId: 'la_1', retry });
    expect(offered).toEqual({ phase: 'retry', request: 1, attempt: attempt('la_1'), retry });
    expect(cameraOn(offered)).toBe(true);
    // The camera coming back does not start the next attempt: the user does.
    expect(livenessStep(offered, { type: 'READY' })).toBe(offered);
    const next = livenessStep(offered, { type: 'TRY_AGAIN' });
    expect(next).toEqual({ phase: 'starting', request: 2 });
    expect(livenessStep(next, { type: 'TRY_AGAIN' })).toBe(next);
    expect(
      livenessStep(next, {
        type: 'STARTED',
        request: 2,
        attempt: { ...attempt('la_2'), attempt: 2 },
      }),
    ).toMatchObject({ phase: 'capturing', attempt: { attemptId: 'la_2', attempt: 2 } });
  });

  it('a capture that lost its camera is sent as such', () => {
    const s = run([
      { type: 'READY' },
      { type: 'STARTED', request: 1, attempt: attempt('la_1') },
      { type: 'CAPTURE_DONE', attemptId: 'la_1', ended: 'cameraLost' },
    ]);
    expect(s).toMatchObject({ phase: 'sending', ended: 'cameraLost' });
  });

  it('asks for a new attempt at once after a refused start, the camera staying on', () => {
    const problem = run([{ type: 'READY' }, { type: 'FAILED', problem: 'unexpected' }]);
    expect(cameraOn(problem)).toBe(true);
    expect(livenessStep(problem, { type: 'RETRY' })).toEqual({ phase: 'starting', request: 3 });
  });

  it('offers no retry once the node allows no more attempts', () => {
    const problem = run([{ type: 'READY' }, { type: 'FAILED', problem: 'exhausted' }]);
    expect(livenessStep(problem, { type: 'RETRY' })).toBe(problem);
  });

  it('changes nothing once decided', () => {
    const decided = run([{ type: 'NO_CAMERA' }, { type: 'DECIDED', position }]);
    for (const e of [
      { type: 'READY' },
      { type: 'NO_CAMERA' },
      { type: 'FAILED', problem: 'network' },
      { type: 'DECIDED', position: { ...position, nodeId: 'other' } },
    ] satisfies LivenessEvent[]) {
      expect(livenessStep(decided, e)).toBe(decided);
    }
  });

  it('keeps the camera on only while it is needed', () => {
    const phases = run([{ type: 'READY' }]);
    expect(cameraOn(INITIAL_LIVENESS)).toBe(true);
    expect(cameraOn(phases)).toBe(true);
    expect(cameraOn({ phase: 'analysing', request: 1, attempt: attempt('la_1') })).toBe(true);
    expect(cameraOn({ phase: 'noCamera', request: 1 })).toBe(false);
    expect(cameraOn({ phase: 'decided', position })).toBe(false);
    const noCameraProblem = livenessStep(
      { phase: 'noCamera', request: 1 },
      { type: 'FAILED', problem: 'network' },
    );
    expect(cameraOn(noCameraProblem)).toBe(false);
  });
});

describe('runBudget', () => {
  // Between frames are taken only during challenges, watch frames only without them.
  const total = (challenges: number, b: ReturnType<typeof runBudget>) =>
    1 +
    b.maxAligning +
    (challenges > 0 ? challenges * (2 + b.maxCandidates) + b.maxBetween : b.maxWatch);

  it('keeps the defaults when they fit', () => {
    expect(runBudget(24, 3)).toEqual({
      maxBetween: 6,
      maxAligning: 3,
      maxCandidates: 2,
      maxWatch: 0,
    });
  });

  it('keeps the whole watch of a capture without challenges', () => {
    // 1 baseline + 3 aligning + 15 watch frames: 19 of the server's 24.
    expect(runBudget(24, 0)).toMatchObject({ maxAligning: 3, maxWatch: 15 });
    // The aligning frames give way before the watch's.
    expect(runBudget(17, 0)).toMatchObject({ maxAligning: 1, maxWatch: 15 });
    expect(runBudget(10, 0)).toMatchObject({ maxAligning: 0, maxWatch: 9 });
  });

  it('takes the between frames away first', () => {
    expect(runBudget(26, 5)).toMatchObject({ maxBetween: 2, maxAligning: 3, maxCandidates: 2 });
    expect(runBudget(24, 5)).toMatchObject({ maxBetween: 0, maxAligning: 3, maxCandidates: 2 });
  });

  it('never plans more frames than the server takes', () => {
    for (let maxFrames = 1; maxFrames <= 30; maxFrames++) {
      for (let challenges = 0; challenges <= 5; challenges++) {
        const b = runBudget(maxFrames, challenges);
        // One baseline and, per challenge, the frame that meets it and the one after its hold
        // cannot be given up.
        expect(total(challenges, b)).toBeLessThanOrEqual(Math.max(maxFrames, 1 + 2 * challenges));
      }
    }
  });

  it('shrinks the aligning frames before the extra challenge frames', () => {
    expect(runBudget(18, 4)).toMatchObject({ maxBetween: 0, maxAligning: 1, maxCandidates: 2 });
    expect(runBudget(14, 4)).toMatchObject({ maxBetween: 1, maxAligning: 0, maxCandidates: 1 });
  });
});
