import { describe, expect, it } from 'vitest';
import { configFromEnv } from './main';
import { DEFAULT_SESSION_TIMEOUTS } from './sessions/timeouts';

describe('configFromEnv', () => {
  it('reads the session timeouts, 30 min idle and 24 h unopened when unset', () => {
    expect(configFromEnv({}).sessionTimeouts).toEqual({
      idleMs: 30 * 60 * 1000,
      unopenedMs: 24 * 60 * 60 * 1000,
    });
    expect(DEFAULT_SESSION_TIMEOUTS).toEqual(configFromEnv({}).sessionTimeouts);
    const short = configFromEnv({
      SESSION_IDLE_TIMEOUT_MS: '5000',
      SESSION_UNOPENED_TIMEOUT_MS: '20000',
    });
    expect(short.sessionTimeouts).toEqual({ idleMs: 5000, unopenedMs: 20_000 });
    // The sweeper keeps up with a short timeout (every minute otherwise).
    expect(short.sweepIntervalMs).toBe(5000);
    expect(configFromEnv({}).sweepIntervalMs).toBe(60_000);
  });

  it('refuses a timeout that is not a whole number of milliseconds above 0, naming it', () => {
    for (const bad of ['0', '-5', '1.5', '30m', 'Infinity']) {
      expect(() => configFromEnv({ SESSION_IDLE_TIMEOUT_MS: bad })).toThrow(
        /^SESSION_IDLE_TIMEOUT_MS must be a whole number of milliseconds above 0/,
      );
    }
    expect(() => configFromEnv({ SESSION_UNOPENED_TIMEOUT_MS: 'x' })).toThrow(
      /^SESSION_UNOPENED_TIMEOUT_MS/,
    );
  });
});
