/**
 * Background jobs in PostgreSQL, for instances and workers that share one database. A claim takes
 * the oldest due job with `FOR UPDATE SKIP LOCKED` (claimants never wait on each other, nor take
 * one job twice) and leases it; a worker that dies mid-job leaves the lease to run out, and the
 * job is claimed again. Handlers must therefore be safe to run twice, as on SQLite.
 */
import { randomBytes } from 'node:crypto';
import type { Pg, PgQuery } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
import type { Promised } from '../store/promised';
import type { Job, JobQueue } from './queue';

export const PG_JOB_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_jobs_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE jobs (
          id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          kind TEXT NOT NULL,
          payload TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending', 'failed')),
          tries INTEGER NOT NULL DEFAULT 0,
          run_after BIGINT NOT NULL,
          -- Set while a worker holds the job; a job whose lease has passed is free again.
          lease_until BIGINT,
          lease_owner TEXT,
          created_at BIGINT NOT NULL,
          last_error TEXT
        );
        CREATE INDEX jobs_due ON jobs (run_after, id) WHERE status = 'pending';
      `);
    },
  },
];

/** `JobQueue` as PostgreSQL answers it: every method a round trip, so every result a promise. */
export type PgJobQueue = Promised<JobQueue> & {
  /** `enqueue` on `q`: inside the transaction of the change that asks for the job. */
  enqueueIn(q: PgQuery, kind: string, payload: unknown, now: number): Promise<number>;
};

interface JobRow {
  id: number;
  kind: string;
  payload: string;
  tries: number;
  lease_owner: string;
}

/**
 * The job queue over a PostgreSQL pool (the `jobs` table must exist: `PG_JOB_MIGRATIONS`).
 *
 * @example
 * const q = pgJobQueue(pg);
 * await q.enqueue('liveness.frame', { attemptId, seq: 0 }, Date.now());
 * const job = await q.claim(Date.now(), 60_000); // … run it …
 * if (job) await q.complete(job);
 */
export function pgJobQueue(pg: Pg): PgJobQueue {
  const enqueueIn = async (q: PgQuery, kind: string, payload: unknown, now: number) => {
    const [r] = await q<{ id: number }[]>`INSERT INTO jobs (kind, payload, status, run_after,
      created_at) VALUES (${kind}, ${JSON.stringify(payload)}, 'pending', ${now}, ${now})
      RETURNING id`;
    if (!r) throw new Error('the job was not inserted');
    return r.id;
  };
  return {
    enqueue: (kind, payload, now) => enqueueIn(pg, kind, payload, now),
    enqueueIn,
    async claim(now, leaseMs, kinds) {
      const owner = randomBytes(8).toString('hex');
      const [row] = await pg<JobRow[]>`UPDATE jobs
        SET lease_until = ${now + leaseMs}, lease_owner = ${owner}, tries = tries + 1
        WHERE id = (SELECT id FROM jobs WHERE status = 'pending' AND run_after <= ${now}
          AND (lease_until IS NULL OR lease_until <= ${now})
          AND (${kinds ? [...kinds] : null}::text[] IS NULL OR kind = ANY(${kinds ? [...kinds] : null}::text[]))
          ORDER BY run_after, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, tries, lease_owner`;
      if (!row) return null;
      const job: Job = {
        id: row.id,
        kind: row.kind,
        payload: JSON.parse(row.payload) as unknown,
        tries: row.tries,
        owner: row.lease_owner,
      };
      return job;
    },
    async complete(job) {
      const done = await pg`DELETE FROM jobs WHERE id = ${job.id} AND lease_owner = ${job.owner}`;
      return done.count === 1;
    },
    async renew(job, now, leaseMs) {
      const held = await pg`UPDATE jobs SET lease_until = ${now + leaseMs}
        WHERE id = ${job.id} AND lease_owner = ${job.owner}`;
      return held.count === 1;
    },
    async fail(job, error, now, retryMs, maxTries) {
      const message = error.slice(0, 1000);
      if (job.tries >= maxTries) {
        await pg`UPDATE jobs SET status = 'failed', lease_until = NULL, lease_owner = NULL,
          last_error = ${message} WHERE id = ${job.id} AND lease_owner = ${job.owner}`;
        return false;
      }
      const retried = await pg`UPDATE jobs SET run_after = ${now + retryMs}, lease_until = NULL,
        lease_owner = NULL, last_error = ${message}
        WHERE id = ${job.id} AND lease_owner = ${job.owner}`;
      return retried.count === 1;
    },
    async pendingCount() {
      const [r] = await pg<
        { n: number }[]
      >`SELECT count(*) AS n FROM jobs WHERE status = 'pending'`;
      return r?.n ?? 0;
    },
    async failed() {
      const rows = await pg<
        { id: number; kind: string; payload: string; last_error: string | null }[]
      >`
        SELECT id, kind, payload, last_error FROM jobs WHERE status = 'failed' ORDER BY id`;
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        payload: JSON.parse(r.payload) as unknown,
        error: r.last_error,
      }));
    },
    async retryFailed(ids, now) {
      const list = ids === 'all' ? null : ids.map(Number);
      const rows = await pg<{ id: number }[]>`UPDATE jobs SET status = 'pending', tries = 0,
        run_after = ${now} WHERE status = 'failed'
        AND (${list}::bigint[] IS NULL OR id = ANY(${list}::bigint[])) RETURNING id`;
      return rows.map((r) => r.id).sort((a, b) => a - b);
    },
  };
}
