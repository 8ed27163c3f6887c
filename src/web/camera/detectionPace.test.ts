import { describe, expect, it } from 'vitest';
import { INITIAL_PACE, paceAfter, readingDue, type Pace } from './detectionPace';

/**
 * A 15 fps camera read for `ms`: the frames the detector takes when each reading costs `cost`
 * (the clock moves on by the reading's own cost).
 */
function readings(cost: number, ms = 10_000) {
  let pace: Pace = INITIAL_PACE;
  let busyUntil = 0;
  let n = 0;
  for (let frame = 0; frame * (1000 / 15) < ms; frame++) {
    const at = Math.max(frame * (1000 / 15), busyUntil);
    if (!readingDue(pace, at)) continue;
    n++;
    busyUntil = at + cost;
    pace = paceAfter(pace, at, busyUntil);
  }
  return n;
}

describe('detection pace', () => {
  it('reads every frame of a 15 fps camera while readings are cheap', () => {
    expect(readings(12)).toBe(150);
  });

  it('reads fewer frames when readings are slow, leaving about half of the time', () => {
    const slow = readings(60);
    expect(slow).toBeLessThan(100);
    expect(slow).toBeGreaterThan(60);
    // Busy at most about half of the time.
    expect((slow * 60) / 10_000).toBeLessThanOrEqual(0.55);
  });

  it('never waits longer than its cap, and follows a cost that changes', () => {
    let pace = paceAfter(INITIAL_PACE, 0, 2000);
    expect(pace.next).toBe(2000 + 400);
    for (let i = 0; i < 20; i++) pace = paceAfter(pace, 10_000 + i * 100, 10_000 + i * 100 + 10);
    expect(pace.costMs).toBeLessThan(20);
  });
});
