/**
 * Liveness attempts and their frames in PostgreSQL, for instances sharing one database; their
 * jobs go to the same database's queue (`pgJobQueue`) in the transaction of the write that asks
 * for them. Where SQLite serialises writers on its one lock, a write here locks what it reads:
 * the attempt's row (`FOR UPDATE`) for a frame or a finish, and for a start the node (an advisory
 * lock, as the node may have no row yet) and its attempts' rows.
 */
import { pgJobQueue } from '../jobs/pg-queue';
import type { Pg, PgQuery } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
import { toAttempt, toFrame, type AttemptRow, type FrameRow } from './attempt-rows';
import { finishRefusal, frameRefusal, startRefusal } from './attempt-rules';
import type { AttemptStore } from './attempt-types';

/**
 * The attempts' tables in the shape SQLite's reach after `liveness_0001` and `liveness_0002`. Keys
 * and sort columns compare bytes (`COLLATE "C"`), times are ms (`bigint`), JSON the text written.
 */
export const PG_LIVENESS_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_liveness_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE liveness_attempts (
          id TEXT COLLATE "C" PRIMARY KEY,
          session_id TEXT COLLATE "C" NOT NULL,
          node_id TEXT COLLATE "C" NOT NULL,
          account_id TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL,
          challenges TEXT NOT NULL,
          timeout_seconds INTEGER NOT NULL,
          max_frames INTEGER NOT NULL,
          issued_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('capturing', 'analysing', 'decided', 'replaced')),
          frame_count INTEGER NOT NULL DEFAULT 0,
          -- 'done' or 'timeout' as the page said; 'expired' when it never finished.
          ended TEXT,
          camera_unavailable BOOLEAN NOT NULL DEFAULT false,
          finished_at BIGINT,
          -- Media saved for the decision, kept so that a re-run after a crash saves nothing twice.
          decision_media TEXT,
          outcome TEXT,
          inconclusive_reason TEXT,
          position TEXT,
          decided_at BIGINT,
          summary TEXT,
          retry TEXT
        );
        CREATE INDEX liveness_attempts_node ON liveness_attempts (session_id, node_id);
        CREATE INDEX liveness_attempts_open ON liveness_attempts (expires_at)
          WHERE status = 'capturing';
        CREATE TABLE liveness_frames (
          attempt_id TEXT COLLATE "C" NOT NULL,
          seq INTEGER NOT NULL,
          role TEXT NOT NULL,
          challenge_index INTEGER,
          t DOUBLE PRECISION NOT NULL,
          received_at BIGINT NOT NULL,
          media_id TEXT COLLATE "C" NOT NULL,
          -- JSON FrameAnalysis, or { error } for a frame the analyzer could not read; NULL: pending.
          analysis TEXT,
          PRIMARY KEY (attempt_id, seq)
        );
      `);
    },
  },
];

/** Any number, the same in every instance: the first key of the node locks `start` takes. */
const START_LOCK = 7_316_002;

/** `AttemptStore` as PostgreSQL answers it: every result a promise. */
export type PgAttemptStore = {
  [K in Exclude<keyof AttemptStore, 'jobs'>]: (
    ...args: Parameters<AttemptStore[K]>
  ) => Promise<Awaited<ReturnType<AttemptStore[K]>>>;
} & { readonly jobs: ReturnType<typeof pgJobQueue> };

/**
 * The attempt store over a PostgreSQL pool whose database holds `PG_LIVENESS_MIGRATIONS`' tables
 * and `PG_JOB_MIGRATIONS`' queue.
 *
 * @example
 * const attempts = pgAttemptStore(pg);
 * await attempts.start({ id: 'att_1', sessionId, nodeId: 'live', … }, { maxStarts: 5, maxAttempts: 3 });
 */
export function pgAttemptStore(pg: Pg): PgAttemptStore {
  const jobs = pgJobQueue(pg);
  const get = async (q: PgQuery, id: string, lock = false) => {
    const [r] = lock
      ? await q<AttemptRow[]>`SELECT * FROM liveness_attempts WHERE id = ${id} FOR UPDATE`
      : await q<AttemptRow[]>`SELECT * FROM liveness_attempts WHERE id = ${id}`;
    return r ? toAttempt(r) : null;
  };
  const ofNode = async (q: PgQuery, sessionId: string, nodeId: string, lock = false) => {
    const rows = lock
      ? await q<AttemptRow[]>`SELECT * FROM liveness_attempts
          WHERE session_id = ${sessionId} AND node_id = ${nodeId} ORDER BY issued_at, id FOR UPDATE`
      : await q<AttemptRow[]>`SELECT * FROM liveness_attempts
          WHERE session_id = ${sessionId} AND node_id = ${nodeId} ORDER BY issued_at, id`;
    return rows.map(toAttempt);
  };

  return {
    jobs,
    start: (a, limits) =>
      pg.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${START_LOCK},
          hashtext(${a.sessionId} || '/' || ${a.nodeId}))`;
        const checked = startRefusal(await ofNode(tx, a.sessionId, a.nodeId, true), limits);
        if (!checked.ok) return checked;
        await tx`UPDATE liveness_attempts SET status = 'replaced', finished_at = ${a.issuedAt}
          WHERE session_id = ${a.sessionId} AND node_id = ${a.nodeId} AND status = 'capturing'`;
        await tx`INSERT INTO liveness_attempts (id, session_id, node_id, account_id, mode,
          challenges, timeout_seconds, max_frames, issued_at, expires_at, status)
          VALUES (${a.id}, ${a.sessionId}, ${a.nodeId}, ${a.accountId}, ${a.mode},
          ${JSON.stringify(a.challenges)}, ${a.timeoutSeconds}, ${a.maxFrames}, ${a.issuedAt},
          ${a.expiresAt}, 'capturing')`;
        return checked;
      }),
    get: (id) => get(pg, id),
    addFrame: (f, now, job) =>
      pg.begin(async (tx) => {
        const a = await get(tx, f.attemptId, true);
        const [held] = a
          ? await tx`SELECT 1 FROM liveness_frames WHERE attempt_id = ${f.attemptId} AND t = ${f.t}`
          : [];
        if (a && held) return { ok: true, received: a.frameCount, duplicate: true } as const;
        const why = frameRefusal(a, now);
        if (why || !a) return { ok: false, reason: why ?? 'unknown' } as const;
        const seq = a.frameCount;
        await tx`INSERT INTO liveness_frames (attempt_id, seq, role, challenge_index, t,
          received_at, media_id) VALUES (${f.attemptId}, ${seq}, ${f.role}, ${f.challengeIndex},
          ${f.t}, ${f.receivedAt}, ${f.mediaId})`;
        await tx`UPDATE liveness_attempts SET frame_count = frame_count + 1
          WHERE id = ${f.attemptId}`;
        const { kind, payload } = job(seq);
        await jobs.enqueueIn(tx, kind, payload, now);
        return { ok: true, received: seq + 1 } as const;
      }),
    finish: (id, how, now, job) =>
      pg.begin(async (tx) => {
        const why = finishRefusal(await get(tx, id, true), how.ended, now);
        if (why) return { ok: false, reason: why } as const;
        await tx`UPDATE liveness_attempts SET status = 'analysing', ended = ${how.ended},
          camera_unavailable = ${how.cameraUnavailable}, finished_at = ${now}
          WHERE id = ${id} AND status = 'capturing'`;
        await jobs.enqueueIn(tx, job.kind, job.payload, now);
        return { ok: true } as const;
      }),
    async listExpired(now, limit) {
      const rows = await pg<AttemptRow[]>`SELECT * FROM liveness_attempts
        WHERE status = 'capturing' AND expires_at <= ${now} ORDER BY expires_at, id LIMIT ${limit}`;
      return rows.map(toAttempt);
    },
    async frames(id) {
      const rows = await pg<FrameRow[]>`SELECT * FROM liveness_frames WHERE attempt_id = ${id}
        ORDER BY seq`;
      return rows.map(toFrame);
    },
    async frame(id, seq) {
      const [r] = await pg<FrameRow[]>`SELECT * FROM liveness_frames
        WHERE attempt_id = ${id} AND seq = ${seq}`;
      return r ? toFrame(r) : null;
    },
    async setAnalysis(id, seq, analysis) {
      await pg`UPDATE liveness_frames SET analysis = ${JSON.stringify(analysis)}
        WHERE attempt_id = ${id} AND seq = ${seq}`;
    },
    async setDecisionMedia(id, media) {
      await pg`UPDATE liveness_attempts SET decision_media = ${JSON.stringify(media)}
        WHERE id = ${id} AND decision_media IS NULL`;
    },
    async decided(id, d, now) {
      await pg`UPDATE liveness_attempts SET status = 'decided', outcome = ${d.outcome},
        inconclusive_reason = ${d.inconclusiveReason}, position = ${JSON.stringify(d.position)},
        decided_at = ${now}, summary = ${JSON.stringify(d.summary)},
        retry = ${d.retry ? JSON.stringify(d.retry) : null}
        WHERE id = ${id} AND status <> 'decided'`;
    },
    attemptsOf: (sessionId, nodeId) => ofNode(pg, sessionId, nodeId),
  };
}
