/**
 * What sharing state between instances costs, on this machine: rate-limit hits per second in
 * process against PostgreSQL's counter table (32 in flight, one key per API key as in use), and
 * media puts and gets per second (64 KB, 16 in flight) in the data folder against an S3-compatible
 * bucket (s3rver on loopback: the SDK's and HTTP's cost plus s3rver's own, not a real S3's).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PG_RATE_LIMIT_MIGRATIONS, pgRateLimiter } from '../src/server/http/pgRateLimit';
import { SlidingWindowLimiter, type RateLimiter } from '../src/server/http/rateLimit';
import { createFsMediaStore } from '../src/server/media/fs-store';
import { createS3MediaStore } from '../src/server/media/s3-store';
import type { MediaStore } from '../src/server/media/types';
import { connectPg } from '../src/server/store/pg/client';
import { runPgMigrations } from '../src/server/store/pg/migrations';
import { startPgCluster } from '../src/server/test/pgCluster';
import { S3RVER_CREDENTIALS, startS3Server } from '../src/server/test/s3Server';
import type { BenchRow } from './types';

const HITS = 20_000;
const OBJECTS = 400;
const OBJECT_BYTES = 64 * 1024;

/** Runs `n` calls of `one`, `inFlight` at a time; returns calls per second. */
async function rate(n: number, inFlight: number, one: (i: number) => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) await one(next++);
    }),
  );
  return Math.round(n / ((performance.now() - started) / 1000));
}

const hits = (limiter: RateLimiter) =>
  // 50 API keys, a limit none reaches: every hit counts.
  rate(HITS, 32, async (i) => limiter.hit(`key:ak_${i % 50}`, 1_000_000));

async function media(name: string, store: MediaStore): Promise<BenchRow[]> {
  const bytes = randomBytes(OBJECT_BYTES);
  const key = (i: number) => `sessions/sess_${i % 40}/med_${i}.jpg`;
  const puts = await rate(OBJECTS, 16, (i) => store.put(key(i), bytes, 'image/jpeg'));
  const gets = await rate(OBJECTS, 16, (i) => store.get(key(i)));
  return [
    { name: `media in ${name}: 64 KB puts per second`, value: puts, unit: '/s' },
    { name: `media in ${name}: 64 KB gets per second`, value: gets, unit: '/s' },
  ];
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const memory = new SlidingWindowLimiter(60_000, () => Date.now());
  rows.push({
    name: 'rate limit hits per second, in process',
    value: await hits(memory),
    unit: '/s',
  });

  const cluster = await startPgCluster();
  try {
    const pg = connectPg(await cluster.newDatabase(), { max: 10 });
    try {
      await runPgMigrations(pg, PG_RATE_LIMIT_MIGRATIONS);
      const shared = pgRateLimiter(pg, 60_000, () => Date.now());
      rows.push({
        name: 'rate limit hits per second, PostgreSQL (32 in flight)',
        value: await hits(shared),
        unit: '/s',
      });
    } finally {
      await pg.end({ timeout: 1 });
    }
  } finally {
    await cluster.stop();
  }

  const dir = mkdtempSync(join(tmpdir(), 'idv-bench-media-'));
  const s3 = await startS3Server(['bench']);
  const bucket = createS3MediaStore({
    bucket: 'bench',
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  try {
    rows.push(...(await media('the data folder', createFsMediaStore(dir))));
    rows.push(...(await media('a bucket (s3rver on loopback)', bucket)));
  } finally {
    bucket.close();
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
