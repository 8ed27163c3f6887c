import { describe, expect, it } from 'vitest';
import { captureState } from './captureProps';
import type { LivenessPhase, OpenAttempt } from './livenessState';
import { retryText } from './useCaptureStrings';

const attempt: OpenAttempt = {
  attemptId: 'att_1',
  challenges: ['turnLeft', 'lookUp'],
  maxFrames: 24,
  attempt: 1,
  maxAttempts: 3,
};
const words = { sending: 'Sending…', analysing: 'Checking…' };
const tryAgain = () => {};
const of = (state: LivenessPhase) => captureState({ state, tryAgain }, words);

describe('captureState', () => {
  it('captures the attempt being captured, within its frame budget', () => {
    const c = of({ phase: 'capturing', request: 1, attempt });
    expect(c).toMatchObject({
      challenges: ['turnLeft', 'lookUp'],
      attemptKey: 'att_1',
      retry: null,
    });
    expect(c.runOptions).toEqual({
      maxBetween: 6,
      maxAligning: 3,
      maxCandidates: 2,
      maxWatch: 0,
    });
    // Without challenges, the watch for a blink within the same budget.
    const plain = of({ phase: 'capturing', request: 1, attempt: { ...attempt, challenges: [] } });
    expect(plain.runOptions).toMatchObject({ maxAligning: 3, maxWatch: 15 });
  });

  it('says what the server is doing while the preview stays on, and nothing is captured', () => {
    expect(of({ phase: 'sending', request: 1, attempt, ended: 'done' })).toMatchObject({
      attemptKey: null,
      waiting: 'Sending…',
    });
    expect(of({ phase: 'analysing', request: 1, attempt })).toMatchObject({
      attemptKey: null,
      waiting: 'Checking…',
    });
  });

  it('shows a failed attempt’s reason with "Try again"', () => {
    const retry = {
      reason: 'challengeFailed' as const,
      attemptsLeft: 1,
      challenge: 'lookUp' as const,
    };
    const c = of({ phase: 'retry', request: 1, attempt, retry });
    expect(c.attemptKey).toBeNull();
    expect(c.retry).toEqual({ ...retry, onTryAgain: tryAgain });
  });
});

describe('retryText', () => {
  const strings = {
    reasons: { challengeFailed: 'No movement seen.', tooDark: 'Too dark.' },
    missed: { lookUp: 'You did not look up.' },
  } as unknown as Parameters<typeof retryText>[0];

  it('names the movement not seen, else the reason', () => {
    expect(retryText(strings, { reason: 'challengeFailed', challenge: 'lookUp' })).toBe(
      'You did not look up.',
    );
    expect(retryText(strings, { reason: 'challengeFailed' })).toBe('No movement seen.');
    expect(retryText(strings, { reason: 'tooDark' })).toBe('Too dark.');
  });
});
