import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_DELAYS_MS,
  describeResult,
  nextAttemptAt,
  parseRetryDelays,
  thrownResult,
  verdictOf,
  type AttemptResult,
} from './retry';

describe('verdictOf', () => {
  it.each<[AttemptResult, string]>([
    [{ kind: 'response', status: 200 }, 'delivered'],
    [{ kind: 'response', status: 204 }, 'delivered'],
    [{ kind: 'response', status: 299 }, 'delivered'],
    [{ kind: 'response', status: 301 }, 'failed'],
    [{ kind: 'response', status: 302 }, 'failed'],
    [{ kind: 'response', status: 400 }, 'failed'],
    [{ kind: 'response', status: 404 }, 'failed'],
    [{ kind: 'response', status: 429 }, 'failed'],
    [{ kind: 'response', status: 500 }, 'retry'],
    [{ kind: 'response', status: 503 }, 'retry'],
    [{ kind: 'timeout' }, 'retry'],
    [{ kind: 'refused', message: 'ECONNREFUSED' }, 'retry'],
    [{ kind: 'network', message: 'ECONNRESET' }, 'retry'],
    [{ kind: 'blocked', message: 'link-local' }, 'failed'],
    [{ kind: 'error', message: 'TypeError: x' }, 'retry'],
  ])('%j → %s', (result, verdict) => {
    expect(verdictOf(result)).toBe(verdict);
  });
});

describe('nextAttemptAt', () => {
  it('follows the default schedule after attempts 1–5 and stops after the 6th', () => {
    const at = [1, 2, 3, 4, 5, 6].map((n) => nextAttemptAt(n, 0, DEFAULT_RETRY_DELAYS_MS));
    expect(at).toEqual([60_000, 300_000, 900_000, 3_600_000, 21_600_000, null]);
  });

  it('with no delays, the first failure is final', () => {
    expect(nextAttemptAt(1, 5, [])).toBeNull();
  });
});

describe('parseRetryDelays', () => {
  it('reads milliseconds separated by commas', () => {
    expect(parseRetryDelays(' 100, 200 ,400')).toEqual([100, 200, 400]);
  });
  it('gives the default schedule when unset or empty, and none for "none"', () => {
    expect(parseRetryDelays(undefined)).toEqual(DEFAULT_RETRY_DELAYS_MS);
    expect(parseRetryDelays('  ')).toEqual(DEFAULT_RETRY_DELAYS_MS);
    expect(parseRetryDelays('none')).toEqual([]);
  });
  it('names every bad entry', () => {
    expect(() => parseRetryDelays('100,1m,-5,')).toThrow(/"1m", "-5", ""/);
  });
});

describe('describeResult', () => {
  it('is short and says what happened', () => {
    expect(describeResult({ kind: 'response', status: 502 })).toBe('HTTP 502');
    expect(describeResult({ kind: 'timeout' })).toBe('timeout');
    expect(describeResult({ kind: 'refused', message: 'connect ECONNREFUSED' })).toBe(
      'refused: connect ECONNREFUSED',
    );
  });
});

describe('thrownResult', () => {
  const unshowable = {
    toString(): string {
      throw new Error('no');
    },
  };
  it.each<[string, unknown, string]>([
    ['a TypeError', new TypeError('x is not a function'), 'TypeError: x is not a function'],
    ['a URIError', new URIError('URI malformed'), 'URIError: URI malformed'],
    ['a string', 'a string', 'thrown a string'],
    ['undefined', undefined, 'thrown undefined'],
    ['a number', 42, 'thrown 42'],
    ['a value that cannot be shown', unshowable, 'thrown a value that cannot be shown'],
  ])('%s thrown → an error result, retried', (_label, thrown, message) => {
    const r = thrownResult(thrown);
    expect(r).toEqual({ kind: 'error', message });
    expect(verdictOf(r)).toBe('retry');
  });
});
