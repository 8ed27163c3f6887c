/**
 * Retention and liveness frames on PostgreSQL (docs/lifecycle.md), the key cases of
 * retention.test.ts and frames-forgotten.test.ts on the other database: the app over a throwaway
 * cluster with every feature's PostgreSQL store (`featureStores`), media in a temporary folder,
 * the clock moved by the test; the analyzer a stand-in that sees one face in every frame.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { openBackend, type PgBackend } from '../backend';
import { manualClock } from '../clock';
import { createApiKey } from '../keys';
import {
  LIVENESS_FLOW,
  ONE_FACE_ANALYZER,
  ONE_FACE_SIZE,
  smallJpeg,
} from '../liveness/test-support';
import { featureStores } from '../main';
import { createFsMediaStore, createMediaService } from '../media';
import { pgMediaRecords } from '../media/pg-records';
import type { MediaKind, MediaService } from '../media/types';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { DAY_MS, type RetentionSettings } from './retention';

const T0 = Date.UTC(2026, 0, 5, 9);
const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'end' } },
  { id: 'end', type: 'end' },
];
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);

let cluster: PgCluster;
let backend: PgBackend;
let dir: string;
let media: MediaService;
let app: FastifyInstance | null;
let key: string;
const clock = manualClock(T0);

beforeAll(async () => {
  cluster = await startPgCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
beforeEach(async () => {
  clock.set(T0);
  dir = mkdtempSync(join(tmpdir(), 'idv-pg-retention-'));
  const opened = await openBackend({ kind: 'postgres', url: await cluster.newDatabase() });
  if (opened.kind !== 'postgres') throw new Error('not PostgreSQL');
  backend = opened;
  media = createMediaService({
    records: pgMediaRecords(backend.store.pg),
    store: createFsMediaStore(join(dir, 'media')),
    secret: Buffer.alloc(32, 1),
    publicUrl: 'http://idv.test',
    clock,
  });
  key = (await createApiKey(backend.store, { accountName: 'acme', mode: 'test', now: T0 })).key;
  app = null;
});
afterEach(async () => {
  await app?.close();
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(retention: Partial<RetentionSettings>) {
  app = await createApp({
    ...featureStores(backend),
    store: backend.store,
    publicUrl: 'http://idv.test',
    clock,
    media,
    analyzer: ONE_FACE_ANALYZER,
    geo: async () => ({}),
    rateLimits: false,
    livenessWorker: 'manual',
    analysesWorker: 'manual',
    retention,
  });
  return app;
}

async function session(flow: unknown[] = FLOW, extra: Record<string, unknown> = {}) {
  const r = await app!.inject({
    method: 'POST',
    url: '/sessions',
    headers: { authorization: `Bearer ${key}` },
    payload: { flow, clientReferenceId: 'u-1', ...extra },
  });
  expect(r.statusCode).toBe(200);
  const { session, clientSecret } = r.json() as {
    session: { id: string };
    clientSecret: { secret: string };
  };
  return { id: session.id, secret: clientSecret.secret };
}

async function save(sessionId: string, kind: MediaKind): Promise<string> {
  const s = (await backend.store.getSessionById(sessionId))!;
  const rec = await media.save({
    sessionId,
    accountId: s.accountId,
    mode: s.mode,
    kind,
    contentType: 'image/jpeg',
    bytes: JPEG,
  });
  return rec.id;
}

const present = async (ids: Record<string, string>) =>
  Object.fromEntries(
    await Promise.all(
      Object.entries(ids).map(async ([k, id]) => [k, (await media.get(id)) !== null] as const),
    ),
  );
const queued = async () =>
  (await backend.store.pg<{ n: number }[]>`SELECT count(*)::int AS n FROM media_deletions`)[0]!.n;

describe('the sweeper applies the retention on PostgreSQL', () => {
  it('deletes media by kind and age, and by the consent days the user was told', async () => {
    await open({ media: { user_video: 30 } });
    const told = (await session(FLOW, { customization: { consent: { retentionDays: 2 } } })).id;
    const plain = (await session()).id;
    const ids = {
      toldPhoto: await save(told, 'user_photo'),
      plainPhoto: await save(plain, 'user_photo'),
      plainVideo: await save(plain, 'user_video'),
      plainFrame: await save(plain, 'frame'),
    };
    await app!.sweeper.runOnce();
    expect(Object.values(await present(ids)).every(Boolean)).toBe(true);
    clock.set(T0 + DAY_MS + 1);
    await app!.sweeper.runOnce();
    expect(await present(ids)).toMatchObject({ plainFrame: false, toldPhoto: true });
    clock.set(T0 + 2 * DAY_MS + 1);
    await app!.sweeper.runOnce();
    expect(await present(ids)).toEqual({
      toldPhoto: false,
      plainPhoto: true,
      plainVideo: true,
      plainFrame: false,
    });
    expect(existsSync(join(dir, 'media', 'sessions', told))).toBe(false);
    clock.set(T0 + 30 * DAY_MS + 1);
    await app!.sweeper.runOnce();
    expect(await present(ids)).toEqual({
      toldPhoto: false,
      plainPhoto: true,
      plainVideo: false,
      plainFrame: false,
    });
    expect(await queued()).toBe(0);
  });

  it('erases finished sessions some days after their end, with their event; unfinished ones stay', async () => {
    await open({ sessionDays: 90 });
    const old = (await session()).id;
    const photo = await save(old, 'user_photo');
    // Unopened for 24 hours: the sweeper ends it; its 90 days count from then.
    clock.set(T0 + DAY_MS + 1);
    await app!.sweeper.runOnce();
    expect((await backend.store.getSessionById(old))!.status).toBe('incomplete');
    clock.set(T0 + 91 * DAY_MS);
    const fresh = (await session()).id;
    await app!.sweeper.runOnce();
    expect((await backend.store.getSessionById(old))!.report.erasedAt).toBeUndefined();
    clock.set(T0 + 91 * DAY_MS + 2);
    await app!.sweeper.runOnce();
    const tomb = (await backend.store.getSessionById(old))!;
    expect(tomb.report.erasedAt).toBe(T0 + 91 * DAY_MS + 2);
    expect(tomb.clientReferenceId).toBeNull();
    expect(await media.get(photo)).toBeNull();
    expect(existsSync(join(dir, 'media', 'sessions', old))).toBe(false);
    const types = (await backend.store.listEvents({ sessionId: old })).map((e) => e.type);
    expect(types).toEqual(['session.status', 'session.status', 'session.erased']);
    expect((await backend.store.getSessionById(fresh))!.report.erasedAt).toBeUndefined();
    // Nothing is due any more: the tombstone is not read again.
    expect(await backend.store.erasure.listEndedBefore(clock.now(), 10)).toEqual([]);
  });
});

describe('liveness frames after the decision on PostgreSQL', () => {
  it('deletes every frame once decided, keeps the screenshots and user photo the report names', async () => {
    await open({});
    const s = await session(LIVENESS_FLOW);
    const ex = await app!.inject({
      method: 'POST',
      url: '/client/exchange',
      payload: { clientSecret: s.secret },
    });
    expect(ex.statusCode).toBe(200);
    const token = (ex.json() as { token: string }).token;
    const client = async (method: 'GET' | 'POST', path: string, body?: object) => {
      const r = await app!.inject({
        method,
        url: `/client${path}`,
        headers: { authorization: `Bearer ${token}` },
        ...(body ? { payload: body } : {}),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field
      return { status: r.statusCode, body: (r.body ? JSON.parse(r.body) : null) as any };
    };
    const kinds = async () => (await media.list(s.id)).map((m) => m.kind).sort();
    const files = () => {
      const d = join(dir, 'media', 'sessions', s.id);
      return existsSync(d) ? readdirSync(d).filter((f) => !f.startsWith('.')) : [];
    };
    const start = await client('POST', '/nodes/live/liveness/start', {});
    expect(start.status).toBe(200);
    const base = `/nodes/live/liveness/${start.body.attemptId}`;
    const image = smallJpeg(ONE_FACE_SIZE);
    const frames = [
      { role: 'baseline', t: 0 },
      ...(start.body.challenges as string[]).map((_, i) => ({
        role: 'challenge',
        challengeIndex: i,
        t: 500 + i * 500,
      })),
    ];
    for (const f of frames) {
      expect((await client('POST', `${base}/frames`, { ...f, image })).status).toBe(202);
    }
    expect((await kinds()).every((k) => k === 'frame')).toBe(true);
    expect(files()).toHaveLength(frames.length);
    expect((await client('POST', `${base}/finish`, { ended: 'done' })).status).toBe(202);
    await app!.liveness.drain();
    expect((await client('GET', base)).body.status).toBe('decided');

    const shots = (await backend.store.getSessionById(s.id))!.report.screenshots ?? [];
    expect(shots.length).toBeGreaterThan(0);
    expect(await kinds()).not.toContain('frame');
    expect(await kinds()).toContain('user_photo');
    expect(files()).toHaveLength((await kinds()).length);
    for (const id of shots) expect(await media.read(id)).not.toBeNull();
    const kept = await app!.liveness.attempts.frames(start.body.attemptId);
    expect(kept).toHaveLength(frames.length);
    expect(kept.every((f) => f.analysis !== null)).toBe(true);
    expect(await queued()).toBe(0);
  });
});
