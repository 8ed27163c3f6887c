import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from './rateLimit';

describe('SlidingWindowLimiter', () => {
  it('counts within the window, refuses without counting, and frees slots as they age', () => {
    let t = 0;
    const l = new SlidingWindowLimiter(60_000, () => t);
    expect(l.hit('k', 3)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    t = 10_000;
    l.hit('k', 3);
    t = 20_000;
    expect(l.hit('k', 3).remaining).toBe(0);
    expect(l.hit('k', 3)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 40 });
    t = 60_000;
    expect(l.hit('k', 3).allowed).toBe(true);
    expect(l.hit('k', 3).allowed).toBe(false);
    t = 70_001;
    expect(l.hit('k', 3).allowed).toBe(true);
    expect(l.peek('other', 3)).toEqual({ allowed: true, limit: 3, remaining: 3, resetSeconds: 0 });
  });

  it('keeps keys apart', () => {
    const l = new SlidingWindowLimiter(1000, () => 0);
    expect(l.hit('a', 1).allowed).toBe(true);
    expect(l.hit('a', 1).allowed).toBe(false);
    expect(l.hit('b', 1).allowed).toBe(true);
  });
});
