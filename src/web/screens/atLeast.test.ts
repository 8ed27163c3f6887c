import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atLeast } from './atLeast';

describe('atLeast', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds a quick answer until the time has passed', async () => {
    let done = false;
    const p = atLeast(Promise.resolve('ok'), 800).then((v) => {
      done = true;
      return v;
    });
    await vi.advanceTimersByTimeAsync(799);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await p).toBe('ok');
  });

  it('does not delay a slow answer further', async () => {
    let settle!: (v: number) => void;
    const p = atLeast(new Promise<number>((r) => (settle = r)), 800);
    await vi.advanceTimersByTimeAsync(2000);
    settle(7);
    expect(await p).toBe(7);
  });

  it('passes a failure on at once', async () => {
    const p = atLeast(Promise.reject(new Error('offline')), 800);
    await expect(p).rejects.toThrow('offline');
  });
});
