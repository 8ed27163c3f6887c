/**
 * Background jobs in the store's SQLite file. A worker claims a job with a lease; a worker that
 * dies mid-job leaves the lease to run out, and the job is claimed again. Handlers must therefore
 * be safe to run twice.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Migration } from '../store/migrations';

export const JOB_MIGRATIONS: readonly Migration[] = [
  {
    id: 'jobs_0001_init',
    up: (db) =>
      db.exec(`
        CREATE TABLE jobs (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,
          payload TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending', 'failed')),
          tries INTEGER NOT NULL DEFAULT 0,
          run_after INTEGER NOT NULL,
          -- Set while a worker holds the job; a job whose lease has passed is free again.
          lease_until INTEGER,
          lease_owner TEXT,
          created_at INTEGER NOT NULL,
          last_error TEXT
        );
        CREATE INDEX jobs_due ON jobs (run_after, id) WHERE status = 'pending';
      `),
  },
];

export interface Job {
  id: number;
  kind: string;
  payload: unknown;
  /** Claims so far, this one included. */
  tries: number;
  /** Who holds the lease; `complete` and `fail` need it. */
  owner: string;
}

interface JobRow {
  id: number;
  kind: string;
  payload: string;
  tries: number;
  lease_owner: string;
}

export interface JobQueue {
  /** Adds a job; inside a better-sqlite3 transaction it is part of it. */
  enqueue(kind: string, payload: unknown, now: number): number;
  /**
   * The oldest due job not leased by anyone, now leased until `now + leaseMs`; or null. With
   * `kinds`, only a job of one of those kinds: workers sharing the table take only their own.
   */
  claim(now: number, leaseMs: number, kinds?: readonly string[]): Job | null;
  /** Removes a finished job, if `job` still holds its lease. */
  complete(job: Job): boolean;
  /**
   * Holds the lease until `now + leaseMs` while the job runs; false when the lease was lost (it ran
   * out and another worker claimed the job).
   */
  renew(job: Job, now: number, leaseMs: number): boolean;
  /**
   * A failed run: the job waits `retryMs` and runs again, or stays `failed` after `maxTries`
   * claims. Returns whether it will run again.
   */
  fail(job: Job, error: string, now: number, retryMs: number, maxTries: number): boolean;
  /** Jobs pending now (leased or not); for tests and the bench. */
  pendingCount(): number;
  failed(): { id: number; kind: string; payload: unknown; error: string | null }[];
  /**
   * Puts failed jobs back in the queue, due at `now`, with their tries counted afresh (an operator
   * retries them once the cause is fixed: `idv jobs retry`). Returns the ids requeued; ids that are
   * not failed jobs are left alone.
   */
  retryFailed(ids: readonly number[] | 'all', now: number): number[];
}

/**
 * What a worker needs of a queue, answered at once (SQLite's `JobQueue`) or later (PostgreSQL's
 * `PgJobQueue`): the worker awaits either.
 */
export interface WorkQueue {
  claim(...args: Parameters<JobQueue['claim']>): Job | null | Promise<Job | null>;
  complete(job: Job): boolean | Promise<boolean>;
  renew(...args: Parameters<JobQueue['renew']>): boolean | Promise<boolean>;
  fail(...args: Parameters<JobQueue['fail']>): boolean | Promise<boolean>;
}

/** A job that may be claimed now: pending, due, not leased, of one of `@kinds` (null: any). */
const DUE = `status = 'pending' AND run_after <= @now AND (lease_until IS NULL OR lease_until <= @now)
  AND (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))`;

/**
 * The job queue over the store's better-sqlite3 handle (the `jobs` table must exist: import
 * `./register` before opening the store, or run `JOB_MIGRATIONS`).
 *
 * @example
 * const q = sqliteJobQueue(store.db);
 * q.enqueue('liveness.frame', { attemptId, seq: 0 }, Date.now());
 * const job = q.claim(Date.now(), 60_000); // … run it …
 * if (job) q.complete(job);
 */
export function sqliteJobQueue(db: Database): JobQueue {
  const s = {
    insert: db.prepare(
      `INSERT INTO jobs (kind, payload, status, run_after, created_at) VALUES (?, ?, 'pending', ?, ?)`,
    ),
    // A read first: an UPDATE takes the write lock even when it changes nothing, and under a run
    // of creates that lock is mostly held by the create writer's thread, so each poll of an idle
    // queue stopped the event loop in SQLite's busy wait (1 ms and more).
    anyDue: db.prepare(`SELECT 1 FROM jobs WHERE ${DUE} LIMIT 1`).pluck(),
    claim: db.prepare(`
      UPDATE jobs SET lease_until = @lease, lease_owner = @owner, tries = tries + 1
      WHERE id = (SELECT id FROM jobs WHERE ${DUE} ORDER BY run_after, id LIMIT 1)
      RETURNING id, kind, payload, tries, lease_owner`),
    complete: db.prepare('DELETE FROM jobs WHERE id = ? AND lease_owner = ?'),
    renew: db.prepare('UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ?'),
    retry: db.prepare(`UPDATE jobs SET run_after = ?, lease_until = NULL, lease_owner = NULL,
      last_error = ? WHERE id = ? AND lease_owner = ?`),
    giveUp: db.prepare(`UPDATE jobs SET status = 'failed', lease_until = NULL, lease_owner = NULL,
      last_error = ? WHERE id = ? AND lease_owner = ?`),
    pending: db.prepare(`SELECT count(*) FROM jobs WHERE status = 'pending'`).pluck(),
    failed: db.prepare(
      `SELECT id, kind, payload, last_error FROM jobs WHERE status = 'failed' ORDER BY id`,
    ),
    requeue: db.prepare(`UPDATE jobs SET status = 'pending', tries = 0, run_after = @now
      WHERE status = 'failed' AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))
      RETURNING id`),
  };
  return {
    enqueue(kind, payload, now) {
      return Number(s.insert.run(kind, JSON.stringify(payload), now, now).lastInsertRowid);
    },
    claim(now, leaseMs, kinds) {
      const kindsJson = kinds ? JSON.stringify(kinds) : null;
      if (s.anyDue.get({ now, kinds: kindsJson }) === undefined) return null;
      // The update chooses again: another worker may have taken that job since the read.
      const row = s.claim.get({
        now,
        lease: now + leaseMs,
        owner: randomBytes(8).toString('hex'),
        kinds: kindsJson,
      }) as JobRow | undefined;
      if (!row) return null;
      return {
        id: row.id,
        kind: row.kind,
        payload: JSON.parse(row.payload) as unknown,
        tries: row.tries,
        owner: row.lease_owner,
      };
    },
    complete(job) {
      return s.complete.run(job.id, job.owner).changes === 1;
    },
    renew(job, now, leaseMs) {
      return s.renew.run(now + leaseMs, job.id, job.owner).changes === 1;
    },
    fail(job, error, now, retryMs, maxTries) {
      const message = error.slice(0, 1000);
      if (job.tries >= maxTries) {
        s.giveUp.run(message, job.id, job.owner);
        return false;
      }
      return s.retry.run(now + retryMs, message, job.id, job.owner).changes === 1;
    },
    pendingCount() {
      return s.pending.get() as number;
    },
    failed() {
      return (
        s.failed.all() as { id: number; kind: string; payload: string; last_error: string | null }[]
      ).map((r) => ({
        id: r.id,
        kind: r.kind,
        payload: JSON.parse(r.payload) as unknown,
        error: r.last_error,
      }));
    },
    retryFailed(ids, now) {
      const rows = s.requeue.all({ now, ids: ids === 'all' ? null : JSON.stringify(ids) }) as {
        id: number;
      }[];
      return rows.map((r) => r.id).sort((a, b) => a - b);
    },
  };
}
