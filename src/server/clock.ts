/** Where the server reads the time; tests pass a clock they can move. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock for tests: starts at `start` and moves only when told.
 *
 * @example
 * const clock = manualClock(0);
 * clock.advance(60_000);
 * clock.now(); // 60000
 */
export function manualClock(
  start = Date.now(),
): Clock & { advance(ms: number): void; set(t: number): void } {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
    set(v: number) {
      t = v;
    },
  };
}
