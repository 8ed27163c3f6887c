import { describe, expect, it } from 'vitest';
import { chooseThreshold, pairsOf, rates, spread, type ScoredPair } from './similarity-table';

const pair = (same: boolean, similarity: number): ScoredPair => ({ same, label: 'x', similarity });

describe('similarity table', () => {
  it('pairs every item with every later one once', () => {
    expect(pairsOf([1, 2, 3])).toEqual([
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(pairsOf([1])).toEqual([]);
  });

  it('counts same pairs under and different pairs at or over a threshold', () => {
    const pairs = [pair(true, 0.9), pair(true, 0.5), pair(false, 0.5), pair(false, 0.2)];
    expect(rates(pairs, [0.5, 0.6])).toEqual([
      { threshold: 0.5, falseReject: 0, falseAccept: 0.5 },
      { threshold: 0.6, falseReject: 0.5, falseAccept: 0 },
    ]);
  });

  it('takes the midpoint of a gap, rounded to the step', () => {
    const c = chooseThreshold([pair(true, 0.621), pair(true, 0.9), pair(false, 0.474)]);
    expect(c.separated).toBe(true);
    expect(c.threshold).toBe(0.55);
    expect(c.sameMin).toBe(0.621);
    expect(c.differentMax).toBe(0.474);
  });

  it('keeps the threshold inside a gap narrower than the step', () => {
    const c = chooseThreshold([pair(true, 0.53), pair(false, 0.51)]);
    expect(c.threshold).toBeGreaterThan(0.51);
    expect(c.threshold).toBeLessThanOrEqual(0.53);
  });

  it('accepts no different pair when the set overlaps', () => {
    const c = chooseThreshold([pair(true, 0.4), pair(true, 0.8), pair(false, 0.62)]);
    expect(c.separated).toBe(false);
    expect(c.threshold).toBe(0.65);
    expect(rates([pair(false, 0.62)], [c.threshold])[0]!.falseAccept).toBe(0);
  });

  it('refuses a set without one of the two kinds', () => {
    expect(() => chooseThreshold([pair(true, 0.9)])).toThrow(/both/);
  });

  it('spreads a list', () => {
    expect(spread([3, 1, 2])).toEqual({ min: 1, median: 2, max: 3 });
    expect(spread([1, 2, 3, 4]).median).toBe(2.5);
  });
});
