/** The state of one key's window after a request. */
export interface RateState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (0 when none counts). */
  resetSeconds: number;
}

/**
 * Counts requests per key against a limit: in-process (`SlidingWindowLimiter`, one instance), or
 * in a database every instance shares (`pgRateLimiter`).
 */
export interface RateLimiter {
  /** Counts a request if the window has room; says whether it was allowed. Refusals do not count. */
  hit(key: string, limit: number): RateState | Promise<RateState>;
}

/**
 * An exact sliding-window limiter: each key keeps the times of its counted requests within the
 * window. Refused requests are not counted, so a client that backs off recovers on time.
 *
 * @example
 * const limiter = new SlidingWindowLimiter(60_000, () => Date.now());
 * limiter.hit('key', 100).allowed; // true
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  private live(key: string, t: number): number[] {
    const list = this.hits.get(key);
    if (!list) return [];
    const from = t - this.windowMs;
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= from) drop++;
    if (drop) list.splice(0, drop);
    return list;
  }

  private state(list: number[], limit: number, t: number, allowed: boolean): RateState {
    const oldest = list[0];
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - list.length),
      resetSeconds:
        oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - t) / 1000)),
    };
  }

  /** Counts a request if the window has room; says whether it was allowed. */
  hit(key: string, limit: number): RateState {
    const t = this.now();
    this.sweep(t);
    const list = this.live(key, t);
    if (list.length >= limit) return this.state(list, limit, t, false);
    list.push(t);
    if (!this.hits.has(key)) this.hits.set(key, list);
    return this.state(list, limit, t, true);
  }

  /** The state without counting anything. */
  peek(key: string, limit: number): RateState {
    const t = this.now();
    const list = this.live(key, t);
    return this.state(list, limit, t, list.length < limit);
  }

  /** Forgets keys whose window is empty, at most once per window, so memory stays bounded. */
  private sweep(t: number): void {
    if (t - this.lastSweep < this.windowMs) return;
    this.lastSweep = t;
    for (const key of [...this.hits.keys()]) {
      if (this.live(key, t).length === 0) this.hits.delete(key);
    }
  }
}
