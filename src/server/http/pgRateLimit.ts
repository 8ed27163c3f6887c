/**
 * Rate limits counted in PostgreSQL, so that N instances behind a proxy enforce one limit per key
 * between them rather than N. A fixed window per key: one row per key and window, bumped by one
 * statement. SQLite (one process) keeps the exact in-process `SlidingWindowLimiter`.
 */
import type { Pg } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
import type { RateLimiter, RateState } from './rateLimit';

export const PG_RATE_LIMIT_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_rate_limits_0001_init',
    async up(tx) {
      // UNLOGGED: no write-ahead log for counters that matter for a minute; a crash of the
      // server empties the table, which forgives at most one window of requests.
      await tx.unsafe(`
        CREATE UNLOGGED TABLE rate_limit_windows (
          key TEXT COLLATE "C" NOT NULL,
          window_start BIGINT NOT NULL,
          count INTEGER NOT NULL,
          PRIMARY KEY (key, window_start)
        );
      `);
    },
  },
];

/**
 * A limiter over the `rate_limit_windows` table (`PG_RATE_LIMIT_MIGRATIONS` applied). A hit is
 * one upsert that adds one only while the count is under the limit, and returns it: concurrent
 * hits from every instance are serialised on the row, none is lost, and a refused request is not
 * counted (as in the in-process limiter, a client that backs off recovers on time). Windows start
 * at multiples of `windowMs` of `now()`: the instances' clocks must agree (NTP), as for job
 * leases. Unlike a sliding window, a client may send up to twice the limit across a window's
 * boundary. Windows past are deleted once per window by each instance.
 *
 * @example
 * const limiter = pgRateLimiter(pg, 60_000, () => Date.now());
 * (await limiter.hit('key:ak_1', 100)).allowed; // true
 */
export function pgRateLimiter(pg: Pg, windowMs: number, now: () => number): RateLimiter {
  let swept = -1;
  return {
    async hit(key, limit): Promise<RateState> {
      const t = now();
      const start = t - (t % windowMs);
      const resetSeconds = Math.max(1, Math.ceil((start + windowMs - t) / 1000));
      if (swept !== start) {
        swept = start;
        await pg`DELETE FROM rate_limit_windows WHERE window_start < ${start}`;
      }
      const refused = { allowed: false, limit, remaining: 0, resetSeconds };
      if (limit <= 0) return refused;
      const [row] = await pg<{ count: number }[]>`
        INSERT INTO rate_limit_windows AS w (key, window_start, count)
        VALUES (${key}, ${start}, 1)
        ON CONFLICT (key, window_start) DO UPDATE SET count = w.count + 1 WHERE w.count < ${limit}
        RETURNING count`;
      if (!row) return refused;
      return { allowed: true, limit, remaining: Math.max(0, limit - row.count), resetSeconds };
    },
  };
}
