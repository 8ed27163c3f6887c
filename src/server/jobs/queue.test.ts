import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { CORE_MIGRATIONS } from '../store/migrations';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';
import { JOB_MIGRATIONS, sqliteJobQueue, type JobQueue } from './queue';
import { createJobWorker } from './worker';

const migrations = [...CORE_MIGRATIONS, ...JOB_MIGRATIONS];

let dir: string;
let store: SqliteSessionStore;
let q: JobQueue;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-jobs-'));
  store = openSqliteStore({
    path: join(dir, 'idv.sqlite'),
    migrations,
    backgroundCheckpoints: false,
  });
  q = sqliteJobQueue(store.db);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sqliteJobQueue', () => {
  it('polls an idle queue without the write lock, so another writer never holds it up', () => {
    q.enqueue('later', {}, 5000);
    const other = new Database(join(dir, 'idv.sqlite'));
    try {
      // Another connection (the create writer's thread) in the middle of a write.
      other.exec('BEGIN IMMEDIATE');
      store.db.pragma('busy_timeout = 0');
      expect(q.claim(1000, 100)).toBeNull();
      // A due job does need the lock, and says so rather than waiting.
      expect(() => q.claim(6000, 100)).toThrow(/locked|busy/i);
      other.exec('COMMIT');
      expect(q.claim(6000, 100)).toMatchObject({ kind: 'later' });
    } finally {
      other.close();
    }
  });

  it('hands out due jobs oldest first, each to one claimant until its lease passes', () => {
    q.enqueue('a', { n: 1 }, 1000);
    q.enqueue('b', { n: 2 }, 1000);
    q.enqueue('later', {}, 5000);
    const first = q.claim(1000, 100)!;
    const second = q.claim(1000, 100)!;
    expect([first.kind, second.kind]).toEqual(['a', 'b']);
    expect(first.payload).toEqual({ n: 1 });
    expect(q.claim(1050, 100)).toBeNull();
    // The lease of `a` is over: another claimant takes it, and the first owner can no longer end it.
    const again = q.claim(1100, 100)!;
    expect(again).toMatchObject({ id: first.id, kind: 'a', tries: 2 });
    expect(q.complete(first)).toBe(false);
    expect(q.complete(again)).toBe(true);
    expect(q.pendingCount()).toBe(2);
  });

  it('retries a failed job later and gives up after maxTries', () => {
    q.enqueue('x', {}, 0);
    const j1 = q.claim(0, 100)!;
    expect(q.fail(j1, 'boom', 10, 50, 2)).toBe(true);
    expect(q.claim(59, 100)).toBeNull();
    const j2 = q.claim(60, 100)!;
    expect(j2.tries).toBe(2);
    expect(q.fail(j2, 'boom again', 70, 50, 2)).toBe(false);
    expect(q.claim(10_000, 100)).toBeNull();
    expect(q.failed()).toEqual([{ id: j1.id, kind: 'x', payload: {}, error: 'boom again' }]);
  });

  it('survives a reopen of the file: a leased job is claimed again after the lease', async () => {
    q.enqueue('frame', { seq: 3 }, 0);
    expect(q.claim(0, 1000)).not.toBeNull();
    await store.close();
    store = openSqliteStore({
      path: join(dir, 'idv.sqlite'),
      migrations,
      backgroundCheckpoints: false,
    });
    q = sqliteJobQueue(store.db);
    expect(q.claim(999, 1000)).toBeNull();
    expect(q.claim(1000, 1000)).toMatchObject({ kind: 'frame', payload: { seq: 3 }, tries: 2 });
  });
});

describe('createJobWorker', () => {
  it('runs jobs one at a time, retries a throwing handler, and drains to the end', async () => {
    const clock = manualClock(0);
    const seen: string[] = [];
    let active = 0;
    let maxActive = 0;
    let flaky = 0;
    const worker = createJobWorker({
      queue: q,
      clock,
      mode: 'manual',
      retryMs: 0,
      maxTries: 3,
      handlers: {
        work: async (p) => {
          active++;
          maxActive = Math.max(maxActive, active);
          await new Promise((r) => setTimeout(r, 5));
          seen.push((p as { name: string }).name);
          active--;
        },
        flaky: async () => {
          flaky++;
          if (flaky < 2) throw new Error('not yet');
        },
      },
    });
    q.enqueue('work', { name: 'one' }, 0);
    q.enqueue('flaky', {}, 0);
    q.enqueue('work', { name: 'two' }, 0);
    q.enqueue('unknown', {}, 0);
    const [a, b] = await Promise.all([worker.drain(), worker.drain()]);
    expect(a + b).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(['one', 'two']);
    expect(maxActive).toBe(1);
    expect(flaky).toBe(2);
    // A kind without a handler here is left for the worker that has one (analyses share the table).
    expect(q.pendingCount()).toBe(1);
    expect(q.failed()).toEqual([]);
    expect(q.claim(0, 100)?.kind).toBe('unknown');
    await worker.stop();
  });

  it('stops after the job in hand and leaves the rest queued for the next start', async () => {
    let started = 0;
    let release!: () => void;
    const inHand = new Promise<void>((r) => (release = r));
    const worker = createJobWorker({
      queue: q,
      clock: manualClock(0),
      mode: 'manual',
      handlers: {
        work: async () => {
          started++;
          await inHand;
        },
      },
    });
    for (let i = 0; i < 3; i++) q.enqueue('work', { i }, 0);
    const drained = worker.drain();
    await new Promise((r) => setTimeout(r, 10));
    const stopped = worker.stop();
    release();
    await stopped;
    await drained;
    expect(started).toBe(1);
    expect(q.pendingCount()).toBe(2);
  });
});
