import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientApiError, errorFromResponse } from '../api/errors';
import type { LivenessAttemptAnswer } from '../api/types';
import { finishAfterUploads, sendingBudgetMs, withTimeout } from './finishAttempt';
import { createUploadQueue } from './uploadQueue';
import { mayRetry } from './useLivenessFlow';

const analysing: LivenessAttemptAnswer = { status: 'analysing' };
const finished = () =>
  errorFromResponse(400, {
    error: { type: 'validation_error', message: 'finished', code: 'attempt_finished' },
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('finishAfterUploads', () => {
  it('asks for the decision with what arrived when an upload never settles', async () => {
    vi.useFakeTimers();
    // The server (a fake of the frame route) stores frames 1 and 2; frame 3's request hangs.
    const stored: number[] = [];
    const queue = createUploadQueue<number>({
      send: (n) => (n === 3 ? new Promise(() => {}) : Promise.resolve(void stored.push(n))),
      retryable: mayRetry,
      timeoutMs: 60_000,
    });
    [1, 2, 3, 4].forEach((n) => queue.push(n));
    const finishedWith: number[][] = [];
    let answer: LivenessAttemptAnswer | null = null;
    void finishAfterUploads({
      queue,
      finish: async () => (finishedWith.push([...stored]), analysing),
      retryable: mayRetry,
      budgetMs: 10_000,
    }).then((a) => (answer = a));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(finishedWith).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(finishedWith).toEqual([[1, 2]]);
    expect(answer).toEqual(analysing);
    expect(queue.progress()).toMatchObject({ sent: 2, abandoned: 2 });
  });

  it('finishes at once when the uploads are done', async () => {
    const queue = createUploadQueue<number>({ send: async () => {}, retryable: mayRetry });
    queue.push(1);
    const finish = vi.fn(async () => analysing);
    expect(await finishAfterUploads({ queue, finish, retryable: mayRetry })).toEqual(analysing);
    expect(finish).toHaveBeenCalledTimes(1);
  });

  it('tries a finish that gets no answer again; a retry refused as finished goes on to poll', async () => {
    vi.useFakeTimers();
    let tries = 0;
    const signals: AbortSignal[] = [];
    const finish = (signal: AbortSignal) => {
      signals.push(signal);
      // The first try reaches the server but its answer never comes back.
      return ++tries === 1
        ? new Promise<LivenessAttemptAnswer>(() => {})
        : Promise.reject(finished());
    };
    const answer = finishAfterUploads({
      queue: null,
      finish,
      retryable: mayRetry,
      timeoutMs: 5_000,
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await answer).toEqual(analysing);
    expect(tries).toBe(2);
    expect(signals[0]!.aborted).toBe(true);
  });

  it('gives up after its tries on a lost connection, and at once on a refusal', async () => {
    const offline = new ClientApiError(0, 'network_error', 'offline');
    const finish = vi.fn(async () => Promise.reject(offline));
    await expect(
      finishAfterUploads({ queue: null, finish, retryable: mayRetry, tries: 3 }),
    ).rejects.toBe(offline);
    expect(finish).toHaveBeenCalledTimes(3);
    const refusal = finished();
    const once = vi.fn(async () => Promise.reject(refusal));
    await expect(
      finishAfterUploads({ queue: null, finish: once, retryable: mayRetry }),
    ).rejects.toBe(refusal);
    expect(once).toHaveBeenCalledTimes(1);
  });

  it('sends nothing when the page moved on during the uploads', async () => {
    const finish = vi.fn(async () => analysing);
    expect(
      await finishAfterUploads({ queue: null, finish, retryable: mayRetry, live: () => false }),
    ).toBeNull();
    expect(finish).not.toHaveBeenCalled();
  });
});

describe('withTimeout', () => {
  it('rejects with a retryable network error and aborts the call when no answer comes', async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | null = null;
    const call = withTimeout(3_000, (signal) => {
      seen = signal;
      return new Promise<never>(() => {});
    });
    const caught = call.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3_000);
    const error = await caught;
    expect(mayRetry(error)).toBe(true);
    expect(seen!.aborted).toBe(true);
  });

  it('passes the answer through when it comes in time', async () => {
    expect(await withTimeout(3_000, async () => 42)).toBe(42);
  });
});

describe('sendingBudgetMs', () => {
  const window = { issuedAt: 1_000_000, expiresAt: 1_075_000 };

  it('lets the uploads go on until the server stops taking frames, and a moment more', () => {
    // Opened at page time 500; the capture ended 20 s later: 55 s of the window are left.
    expect(sendingBudgetMs(window, 500, 20_500)).toBe(56_000);
  });

  it('gives only the moment for the last request once the window has passed', () => {
    expect(sendingBudgetMs(window, 500, 90_000)).toBe(1_000);
  });
});
