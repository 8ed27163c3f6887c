/**
 * What every `RateLimiter` does, run against the in-process one (SQLite's) and PostgreSQL's (a
 * throwaway cluster); then what only a shared one does: instances counting together.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectPg, type Pg } from '../store/pg/client';
import { runPgMigrations } from '../store/pg/migrations';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { PG_RATE_LIMIT_MIGRATIONS, pgRateLimiter } from './pgRateLimit';
import { SlidingWindowLimiter, type RateLimiter } from './rateLimit';

const WINDOW = 60_000;
/** A window's start, so that both kinds of window begin at the first hit. */
const T0 = 29_166_667 * WINDOW;

interface Subject {
  name: string;
  /** A new limiter with nothing counted, on the clock `now`. */
  open(now: () => number): Promise<RateLimiter>;
  close(): Promise<void>;
}

// One cluster for the file, started once (a few seconds) and removed after.
let cluster: PgCluster | null = null;
beforeAll(async () => {
  cluster = await startPgCluster();
}, 60_000);
afterAll(() => cluster?.stop());

const pools: Pg[] = [];
const pool = (url: string) => {
  const pg = connectPg(url, { max: 4 });
  pools.push(pg);
  return pg;
};
const closePools = async () => {
  await Promise.all(pools.splice(0).map((pg) => pg.end({ timeout: 1 })));
};

/** A new database with the limiter's table. */
async function limiterDatabase(): Promise<string> {
  if (!cluster) throw new Error('no cluster');
  const url = await cluster.newDatabase();
  await runPgMigrations(pool(url), PG_RATE_LIMIT_MIGRATIONS);
  return url;
}

const memory: Subject = {
  name: 'in-process',
  async open(now) {
    return new SlidingWindowLimiter(WINDOW, now);
  },
  async close() {},
};

const postgres: Subject = {
  name: 'PostgreSQL',
  async open(now) {
    return pgRateLimiter(pool(await limiterDatabase()), WINDOW, now);
  },
  close: closePools,
};

describe.each([memory, postgres])('the $name rate limiter', (subject) => {
  let t = T0;
  const now = () => t;
  afterEach(async () => {
    t = T0;
    await subject.close();
  });

  it('counts up to the limit, refuses without counting, and allows again after the window', async () => {
    const limiter = await subject.open(now);
    expect(await limiter.hit('k', 3)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSeconds: 60,
    });
    expect((await limiter.hit('k', 3)).remaining).toBe(1);
    expect((await limiter.hit('k', 3)).remaining).toBe(0);
    // (Hits at one instant: a sliding window and a fixed one then agree on every figure.)
    t = T0 + 20_000;
    for (let i = 0; i < 5; i++) {
      expect(await limiter.hit('k', 3)).toEqual({
        allowed: false,
        limit: 3,
        remaining: 0,
        resetSeconds: 40,
      });
    }
    // The refusals were not counted: the next window starts empty.
    t = T0 + WINDOW;
    expect(await limiter.hit('k', 3)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('keeps keys apart, each with its own limit', async () => {
    const limiter = await subject.open(now);
    expect((await limiter.hit('key:a', 1)).allowed).toBe(true);
    expect((await limiter.hit('key:a', 1)).allowed).toBe(false);
    expect((await limiter.hit('key:b', 2)).allowed).toBe(true);
    expect((await limiter.hit('ip:127.0.0.1', 1)).allowed).toBe(true);
    expect((await limiter.hit('key:b', 2)).allowed).toBe(true);
    expect((await limiter.hit('key:b', 2)).allowed).toBe(false);
  });
});

describe('the PostgreSQL rate limiter shared by instances', () => {
  let t = T0;
  const now = () => t;
  afterEach(closePools);

  it('enforces one limit across instances, even for hits that arrive together', async () => {
    const url = await limiterDatabase();
    const a = pgRateLimiter(pool(url), WINDOW, now);
    const b = pgRateLimiter(pool(url), WINDOW, now);
    expect((await a.hit('key:ak_1', 3)).remaining).toBe(2);
    expect((await b.hit('key:ak_1', 3)).remaining).toBe(1);
    expect((await a.hit('key:ak_1', 3)).remaining).toBe(0);
    expect((await b.hit('key:ak_1', 3)).allowed).toBe(false);

    const together = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).hit('key:ak_2', 7)),
    );
    expect(together.filter((s) => s.allowed)).toHaveLength(7);
    expect(together.filter((s) => s.allowed).map((s) => s.remaining)).toEqual(
      expect.arrayContaining([6, 5, 4, 3, 2, 1, 0]),
    );
  });

  it('deletes windows that have passed', async () => {
    const url = await limiterDatabase();
    const pg = pool(url);
    const limiter = pgRateLimiter(pg, WINDOW, now);
    for (const key of ['a', 'b', 'c']) await limiter.hit(key, 5);
    t = T0 + 2 * WINDOW;
    await limiter.hit('d', 5);
    const rows = await pg<{ key: string }[]>`SELECT key FROM rate_limit_windows ORDER BY key`;
    expect(rows.map((r) => r.key)).toEqual(['d']);
  });
});
