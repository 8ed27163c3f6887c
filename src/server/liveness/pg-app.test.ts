/**
 * An app whose liveness attempts, frames, jobs and media records live in PostgreSQL (a throwaway
 * cluster; `createApp`'s `attempts` and `mediaRecords`), the sessions still in the SQLite store:
 * an attempt through the routes is decided by the real analyzer from what PostgreSQL holds, and
 * nothing of it is written to the SQLite file. Skipped without `npm run fixtures`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../core/liveness';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { createHumanAnalyzer } from '../face-analysis/human-analyzer';
import { SERVER_MIGRATIONS } from '../features';
import { PG_JOB_MIGRATIONS } from '../jobs/pg-queue';
import { PG_MEDIA_MIGRATIONS, pgMediaRecords } from '../media/pg-records';
import { connectPg, type Pg } from '../store/pg/client';
import { runPgMigrations } from '../store/pg/migrations';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { PG_LIVENESS_MIGRATIONS, pgAttemptStore } from './pg-attempt-store';
import {
  fixtureFrameJpeg,
  missingFixtures,
  openLivenessApp,
  type LivenessApp,
} from './test-support';

const missing = missingFixtures(['head-loop.y4m']);
if (missing.length > 0) {
  console.warn(`liveness pg-app.test: skipped, fixtures missing (${missing.join(', ')})`);
}

/** Frames of head-loop.y4m at each pose's peak (docs/liveness-fixtures.md). */
const LOOP_FRAMES: Record<'frontal' | Challenge, number> = {
  frontal: 6,
  turnLeft: 27,
  turnRight: 62,
  lookUp: 96,
  comeCloser: 130,
};

describe.skipIf(missing.length > 0)('liveness over PostgreSQL', () => {
  let cluster: PgCluster;
  let pg: Pg;
  let analyzer: FaceAnalyzer;
  let t: LivenessApp;

  beforeAll(async () => {
    cluster = await startPgCluster();
    pg = connectPg(await cluster.newDatabase(), { max: 4 });
    await runPgMigrations(pg, [
      ...PG_JOB_MIGRATIONS,
      ...PG_MEDIA_MIGRATIONS,
      ...PG_LIVENESS_MIGRATIONS,
    ]);
    analyzer = createHumanAnalyzer();
    await analyzer.load();
    // Every table in the SQLite file too (faces and the analyses still read it): they stay empty.
    t = await openLivenessApp(
      {
        analyzer,
        livenessWorker: 'manual',
        analysesWorker: 'manual',
        attempts: pgAttemptStore(pg),
        mediaRecords: pgMediaRecords(pg),
      },
      { migrations: SERVER_MIGRATIONS },
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await analyzer?.close();
    await pg?.end({ timeout: 1 });
    await cluster?.stop();
  });

  it('decides an attempt from the frames and jobs PostgreSQL holds, and keeps its media there', async () => {
    const s = await t.open();
    const start = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(start.status, start.raw).toBe(200);
    const challenges = start.body.challenges as Challenge[];
    const base = `/nodes/live/liveness/${start.body.attemptId}`;
    const frames = [
      { role: 'baseline', image: fixtureFrameJpeg('head-loop.y4m', LOOP_FRAMES.frontal) },
      ...challenges.map((c, i) => ({
        role: 'challenge',
        challengeIndex: i,
        image: fixtureFrameJpeg('head-loop.y4m', LOOP_FRAMES[c]),
      })),
    ];
    let ms = 0;
    for (const f of frames) {
      const r = await t.client(s.token, 'POST', `${base}/frames`, { ...f, t: (ms += 500) });
      expect(r.status, r.raw).toBe(202);
    }
    const [queued] = await pg<{ n: number }[]>`SELECT count(*)::int AS n FROM jobs`;
    expect(queued?.n).toBe(frames.length);
    expect((await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' })).status).toBe(202);
    expect(await t.app.liveness.drain()).toBe(frames.length + 1);

    const status = await t.client(s.token, 'GET', base);
    expect(status.body).toMatchObject({ status: 'decided', position: { status: 'complete' } });
    const session = await t.store.getSessionById(s.sessionId);
    const node = session?.report.nodeReports.find((r) => r.nodeId === 'live');
    expect(node?.outcome).toBe('livenessDetected');

    const [attempt] = await pg<{ status: string; frame_count: number }[]>`
      SELECT status, frame_count FROM liveness_attempts WHERE id = ${start.body.attemptId}`;
    expect(attempt).toEqual({ status: 'decided', frame_count: frames.length });
    const kinds = await pg<{ kind: string }[]>`SELECT kind FROM media
      WHERE session_id = ${s.sessionId} ORDER BY created_at, id`;
    const screenshots = session?.report.screenshots ?? [];
    expect(kinds.filter((k) => k.kind === 'frame')).toHaveLength(frames.length);
    expect(kinds.filter((k) => k.kind === 'screenshot')).toHaveLength(screenshots.length);
    expect(kinds.filter((k) => k.kind === 'user_photo')).toHaveLength(1);
    for (const id of screenshots) expect(await t.app.ctx.media.get(id)).not.toBeNull();

    // Nothing of it in the SQLite file.
    for (const table of ['liveness_attempts', 'liveness_frames', 'media', 'jobs']) {
      const rows = t.store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get();
      expect([table, rows]).toEqual([table, { n: 0 }]);
    }
  }, 120_000);
});
