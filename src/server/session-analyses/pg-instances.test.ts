/**
 * The analyses of two instances over one PostgreSQL database: a session ended by a third
 * connection (another instance's request, the sweeper) is noticed at once through `NOTIFY` (the
 * instances poll only once a minute here), its jobs are queued once, and its deepfake status and
 * `analysis.deepfake` event are written once. Media and liveness attempts are still SQLite's (a
 * temporary file shared by both instances), until they move to PostgreSQL too.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../clock';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { PG_SERVER_MIGRATIONS, SERVER_MIGRATIONS } from '../features';
import { createGateway } from '../flow/gateway';
import { runMigrations } from '../store/migrations';
import { openMediaFixture, type MediaFixture } from '../media/test-support';
import { automaticMoves } from '../nodes';
import { openPgStore, type PgSessionStore } from '../store/pg/store';
import { endSession, newSession } from '../test/featureStores';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { pgAccountSettings } from './pg-account-settings';
import { pgAnalysesStore } from './pg-store';
import { createAnalyses, type Analyses } from './service';

/** Sessions without captures have nothing for the models: never called. */
const noAnalyzer: FaceAnalyzer = {
  load: async () => {},
  analyze: async () => {
    throw new Error('the analyzer was called');
  },
  close: async () => {},
};

let cluster: PgCluster;
let media: MediaFixture;
const stores: PgSessionStore[] = [];
const instances: Analyses[] = [];

beforeAll(async () => {
  cluster = await startPgCluster();
  const url = await cluster.newDatabase();
  media = openMediaFixture();
  runMigrations(media.db.db, SERVER_MIGRATIONS);
  for (let i = 0; i < 3; i++) {
    stores.push(await openPgStore({ url, max: 4, migrations: PG_SERVER_MIGRATIONS }));
  }
  for (const store of stores.slice(0, 2)) {
    const analyses = createAnalyses({
      store,
      gateway: createGateway({ store, clock: systemClock, automatic: automaticMoves }),
      db: media.db.db,
      media: media.media,
      clock: systemClock,
      analyzer: noAnalyzer,
      analysesStore: pgAnalysesStore(store.pg),
      settings: pgAccountSettings(store.pg),
      pollMs: 60_000,
    });
    analyses.run();
    instances.push(analyses);
  }
}, 60_000);

afterAll(async () => {
  for (const a of instances) await a.close();
  for (const s of stores) await s.close();
  await media?.close();
  await cluster?.stop();
});

/** The session's event types once `analysis.deepfake` is among them (or after 20 s). */
async function analysedEvents(store: PgSessionStore, sessionId: string): Promise<string[]> {
  let types: string[] = [];
  for (let i = 0; i < 400 && !types.includes('analysis.deepfake'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    types = (await store.listEvents({ sessionId })).map((e) => e.type);
  }
  return types;
}

it('a session ended anywhere is analysed at once, by one instance, once', async () => {
  const [a, , elsewhere] = stores as [PgSessionStore, PgSessionStore, PgSessionStore];
  // The first may be found by an instance's first look; by the time it is analysed the instances
  // listen, and only a notice can bring the second one to them before their next poll.
  for (const i of [1, 2]) {
    const s = await newSession(elsewhere, i);
    await pgAccountSettings(a.pg).setDeepfake(s.accountId, true, Date.now());
    await endSession(elsewhere, s, 'complete', Date.now());
    const types = await analysedEvents(a, s.id);
    expect(types.filter((t) => t === 'analysis.deepfake')).toHaveLength(1);
    const report = (await a.getSessionById(s.id))!.report;
    // No frame shows a face: the detector cannot judge, and says so.
    expect(report.deepfakeDetectionStatus).toMatchObject({ status: 'failed' });
    const [row] = await a.pg<{ queued: number }[]>`SELECT queued FROM session_analyses
      WHERE session_id = ${s.id}`;
    expect(row?.queued).toBe(1);
  }
  expect(await instances[0]!.queue.pendingCount()).toBe(0);
  // Both instances scan again: nothing more is queued or written.
  expect((await instances[0]!.scan()) + (await instances[1]!.scan())).toBe(0);
  await instances[1]!.drain();
  for (const s of await Promise.all([1, 2].map((i) => a.getSessionById(`sess_000${i}`)))) {
    const after = (await a.listEvents({ sessionId: s!.id })).map((e) => e.type);
    expect(after.filter((t) => t === 'analysis.deepfake')).toHaveLength(1);
  }
}, 60_000);
