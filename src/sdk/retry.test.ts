import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfter, retryDelay } from './retry';

describe('retry rules', () => {
  it('retries 429, 5xx and failed connections only', () => {
    expect([0, 429, 500, 502, 503].map(isRetryable)).toEqual([true, true, true, true, true]);
    expect([200, 400, 401, 404, 409].map(isRetryable)).toEqual([false, false, false, false, false]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7', 0)).toBe(7000);
    const now = Date.UTC(2015, 9, 21, 7, 28, 0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it("waits the service's Retry-After up to the bound, else backs off with jitter", () => {
    const p = DEFAULT_RETRY_POLICY;
    expect(retryDelay(1, 3000, p, () => 0)).toBe(3000);
    expect(retryDelay(1, p.maxDelayMs + 1, p, () => 0)).toBeNull();
    expect([1, 2, 3].map((r) => retryDelay(r, undefined, p, () => 0))).toEqual([250, 500, 1000]);
    expect([1, 2, 3].map((r) => retryDelay(r, undefined, p, () => 0.999))).toEqual([
      500, 1000, 1999,
    ]);
    expect(retryDelay(p.maxRetries + 1, undefined, p, () => 0)).toBeNull();
    expect(retryDelay(1, undefined, { ...p, maxRetries: 0 }, () => 0)).toBeNull();
    expect(retryDelay(20, undefined, { ...p, maxRetries: 30 }, () => 0.999)).toBeLessThanOrEqual(
      p.maxDelayMs,
    );
  });
});
