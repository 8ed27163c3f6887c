/**
 * One suite, both job queues: SQLite's (synchronous, one file) and PostgreSQL's (shared by
 * instances and workers). Two connections stand for two processes claiming from one table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { connectPg, type Pg } from '../store/pg/client';
import { runPgMigrations } from '../store/pg/migrations';
import { CORE_MIGRATIONS } from '../store/migrations';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { PG_JOB_MIGRATIONS, pgJobQueue, type PgJobQueue } from './pg-queue';
import { JOB_MIGRATIONS, sqliteJobQueue } from './queue';
import { createJobWorker } from './worker';
import { promised } from '../store/promised';

/** Either queue, with promises: SQLite's answers at once. */
type Queue = Omit<PgJobQueue, 'enqueueIn'>;

interface Subject {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A fresh table, and a queue over it on a connection of its own. */
  fresh(): Promise<void>;
  open(): Promise<Queue>;
  close(): Promise<void>;
}

function sqliteSubject(): Subject {
  let dir = '';
  const stores: SqliteSessionStore[] = [];
  return {
    name: 'SQLite',
    async setup() {},
    async teardown() {},
    async fresh() {
      dir = mkdtempSync(join(tmpdir(), 'idv-jobs-contract-'));
    },
    async open() {
      const store = openSqliteStore({
        path: join(dir, 'idv.sqlite'),
        migrations: [...CORE_MIGRATIONS, ...JOB_MIGRATIONS],
        backgroundCheckpoints: false,
      });
      stores.push(store);
      return promised(sqliteJobQueue(store.db));
    },
    async close() {
      for (const s of stores.splice(0)) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function pgSubject(): Subject & { pool(): Pg } {
  let cluster: PgCluster | null = null;
  let url = '';
  const pools: Pg[] = [];
  return {
    name: 'PostgreSQL',
    async setup() {
      cluster = await startPgCluster();
    },
    async teardown() {
      await cluster?.stop();
    },
    async fresh() {
      if (!cluster) throw new Error('no cluster');
      url = await cluster.newDatabase();
    },
    async open() {
      const pg = connectPg(url, { max: 4 });
      pools.push(pg);
      await runPgMigrations(pg, PG_JOB_MIGRATIONS);
      return pgJobQueue(pg);
    },
    pool() {
      const pg = pools[0];
      if (!pg) throw new Error('no pool yet');
      return pg;
    },
    async close() {
      for (const pg of pools.splice(0)) await pg.end({ timeout: 1 });
    },
  };
}

const postgres = pgSubject();

describe.each([sqliteSubject(), postgres])('the $name job queue', (subject) => {
  let q: Queue;
  beforeAll(() => subject.setup(), 60_000);
  afterAll(() => subject.teardown());
  beforeEach(async () => {
    await subject.fresh();
    q = await subject.open();
  });
  afterEach(() => subject.close());

  it('hands out due jobs oldest first, each to one claimant until its lease passes', async () => {
    await q.enqueue('a', { n: 1 }, 1000);
    await q.enqueue('b', { n: 2 }, 1000);
    await q.enqueue('later', {}, 5000);
    const first = (await q.claim(1000, 100))!;
    const second = (await q.claim(1000, 100))!;
    expect([first.kind, second.kind]).toEqual(['a', 'b']);
    expect(first.payload).toEqual({ n: 1 });
    expect(await q.claim(1050, 100)).toBeNull();
    const again = (await q.claim(1100, 100))!;
    expect(again).toMatchObject({ id: first.id, kind: 'a', tries: 2 });
    expect(await q.complete(first)).toBe(false);
    expect(await q.complete(again)).toBe(true);
    expect(await q.pendingCount()).toBe(2);
  });

  it('keeps a job from other claimants while its worker renews the lease, and frees it when it stops', async () => {
    await q.enqueue('slow', {}, 0);
    const clock = manualClock(0);
    const renewed: (() => void)[] = [];
    const watched: typeof q = {
      ...q,
      renew: async (...a) => {
        const held = await q.renew(...a);
        renewed.shift()?.();
        return held;
      },
    };
    const nextRenewal = () => new Promise<void>((ok) => renewed.push(ok));
    const claimedByOther: (unknown | null)[] = [];
    const worker = createJobWorker({
      queue: watched,
      clock,
      mode: 'manual',
      leaseMs: 300,
      handlers: {
        // Runs past its first lease (300) twice over; each step waits for a renewal.
        slow: async () => {
          for (const t of [250, 500, 750]) {
            clock.set(t);
            await nextRenewal();
            claimedByOther.push(await q.claim(t, 300));
          }
        },
      },
    });
    expect(await worker.drain()).toBe(1);
    expect(claimedByOther).toEqual([null, null, null]);
    expect(await q.pendingCount()).toBe(0);

    // A lease that ran out and went to another claimant is not renewed by the first.
    await q.enqueue('lost', {}, 1000);
    const first = (await q.claim(1000, 100))!;
    const second = (await q.claim(1100, 100))!;
    expect(second.id).toBe(first.id);
    expect(await q.renew(first, 1150, 100)).toBe(false);
    expect(await q.renew(second, 1150, 100)).toBe(true);
  });

  it('takes only the kinds asked for', async () => {
    await q.enqueue('a', {}, 0);
    await q.enqueue('b', {}, 0);
    expect((await q.claim(0, 100, ['b']))?.kind).toBe('b');
    expect(await q.claim(0, 100, ['b', 'c'])).toBeNull();
    expect((await q.claim(0, 100))?.kind).toBe('a');
  });

  it('retries a failed job later, gives up after maxTries, and requeues on demand', async () => {
    await q.enqueue('x', {}, 0);
    const j1 = (await q.claim(0, 100))!;
    expect(await q.fail(j1, 'boom', 10, 50, 2)).toBe(true);
    expect(await q.claim(59, 100)).toBeNull();
    const j2 = (await q.claim(60, 100))!;
    expect(j2.tries).toBe(2);
    expect(await q.fail(j2, 'boom again', 70, 50, 2)).toBe(false);
    expect(await q.claim(10_000, 100)).toBeNull();
    expect(await q.failed()).toEqual([{ id: j1.id, kind: 'x', payload: {}, error: 'boom again' }]);
    expect(await q.retryFailed([j1.id + 99], 20_000)).toEqual([]);
    expect(await q.retryFailed('all', 20_000)).toEqual([j1.id]);
    expect(await q.claim(20_000, 100)).toMatchObject({ id: j1.id, tries: 1 });
  });

  it('gives each job to one of many claimants on two connections at once', async () => {
    const other = await subject.open();
    const ids = new Set<number>();
    for (let i = 0; i < 30; i++) ids.add(await q.enqueue('w', { i }, 0));
    const claims = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? other : q).claim(0, 60_000)),
    );
    const got = claims.flatMap((j) => (j ? [j.id] : []));
    expect(got).toHaveLength(30);
    expect(new Set(got)).toEqual(ids);
  });
});

describe('the PostgreSQL job queue, beside a transaction holding a job', () => {
  beforeAll(() => postgres.setup(), 60_000);
  afterAll(() => postgres.teardown());
  beforeEach(() => postgres.fresh());
  afterEach(() => postgres.close());

  it('skips a locked job rather than waiting for it (FOR UPDATE SKIP LOCKED)', async () => {
    const q = await postgres.open();
    const first = await q.enqueue('a', {}, 0);
    const second = await q.enqueue('b', {}, 0);
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const held = new Promise<void>((r) => (release = r));
    const holder = postgres.pool().begin(async (tx) => {
      await tx`SELECT id FROM jobs WHERE id = ${first} FOR UPDATE`;
      locked();
      await held;
    });
    await isLocked;
    const claimed = await q.claim(0, 100);
    release();
    await holder;
    expect(claimed?.id).toBe(second);
    expect((await q.claim(0, 100))?.id).toBe(first);
  });

  it('lets two workers on two connections run each job once, never one job twice at a time', async () => {
    const other = await postgres.open();
    const q = await postgres.open();
    const n = 24;
    for (let i = 0; i < n; i++) await q.enqueue('work', { i }, 0);
    const runs: number[] = [];
    const active = new Set<number>();
    let overlaps = 0;
    const worker = (queue: typeof q) =>
      createJobWorker({
        queue,
        clock: manualClock(0),
        mode: 'manual',
        handlers: {
          work: async (payload) => {
            const { i } = payload as { i: number };
            if (active.has(i)) overlaps++;
            active.add(i);
            await new Promise((r) => setImmediate(r));
            runs.push(i);
            active.delete(i);
          },
        },
      });
    const [x, y] = [worker(q), worker(other)];
    const [ranX, ranY] = await Promise.all([x.drain(), y.drain()]);
    expect(ranX + ranY).toBe(n);
    expect([...runs].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(overlaps).toBe(0);
    expect(await q.pendingCount()).toBe(0);
    await x.stop();
    await y.stop();
  });
});
