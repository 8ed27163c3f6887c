/**
 * Retention (docs/lifecycle.md) applied by the app's sweeper on a real SQLite file and media
 * folder, the clock moved by the test: media by kind and age, by the consent's days, finished
 * sessions erased by age; and the `RETENTION_*_DAYS` variables.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { sqliteFaceStore } from '../faces/face-store';
import { manualClock } from '../clock';
import { createApiKey } from '../keys';
import { configFromEnv } from '../main';
import { createFsMediaStore, createMediaService } from '../media';
import type { MediaKind, MediaService } from '../media/types';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';
import { createSessionEraser } from './erase-session';
import { createRetention, DAY_MS, retentionFromEnv, type RetentionSettings } from './retention';
import { sqliteLifecycle } from './sqlite-lifecycle';

const T0 = Date.UTC(2026, 0, 5, 9);
const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'end' } },
  { id: 'end', type: 'end' },
];
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);

let dir: string;
let store: SqliteSessionStore;
let media: MediaService;
let app: FastifyInstance | null;
let key: string;
const clock = manualClock(T0);

beforeEach(async () => {
  clock.set(T0);
  dir = mkdtempSync(join(tmpdir(), 'idv-retention-'));
  store = openSqliteStore({ path: join(dir, 'idv.sqlite'), backgroundCheckpoints: false });
  media = createMediaService({
    db: store.db,
    store: createFsMediaStore(join(dir, 'media')),
    secret: Buffer.alloc(32, 1),
    publicUrl: 'http://idv.test',
    clock,
  });
  key = (await createApiKey(store, { accountName: 'acme', mode: 'test', now: T0 })).key;
  app = null;
});
afterEach(async () => {
  await app?.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(retention: Partial<RetentionSettings>) {
  app = await createApp({
    store,
    db: store.db,
    publicUrl: 'http://idv.test',
    clock,
    media,
    geo: async () => ({}),
    rateLimits: false,
    livenessWorker: 'manual',
    retention,
  });
  return app;
}

async function session(extra: Record<string, unknown> = {}): Promise<string> {
  const r = await app!.inject({
    method: 'POST',
    url: '/sessions',
    headers: { authorization: `Bearer ${key}` },
    payload: { flow: FLOW, clientReferenceId: 'u-1', ...extra },
  });
  expect(r.statusCode).toBe(200);
  return (r.json() as { session: { id: string } }).session.id;
}

async function save(sessionId: string, kind: MediaKind): Promise<string> {
  const s = (await store.getSessionById(sessionId))!;
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

describe('the sweeper applies the retention', () => {
  it('deletes media by kind and age, and by the consent days the user was told', async () => {
    await open({ media: { user_video: 30 } });
    const told = await session({ customization: { consent: { retentionDays: 2 } } });
    const plain = await session();
    const ids = {
      toldPhoto: await save(told, 'user_photo'),
      plainPhoto: await save(plain, 'user_photo'),
      plainVideo: await save(plain, 'user_video'),
      plainFrame: await save(plain, 'frame'),
    };
    await app!.sweeper.runOnce();
    expect(await present(ids)).toEqual({
      toldPhoto: true,
      plainPhoto: true,
      plainVideo: true,
      plainFrame: true,
    });
    // Frames: a day by default (a net: decided frames went at their decision).
    clock.set(T0 + DAY_MS + 1);
    await app!.sweeper.runOnce();
    expect((await present(ids)).plainFrame).toBe(false);
    expect((await present(ids)).toldPhoto).toBe(true);
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
    expect(store.db.prepare('SELECT count(*) AS n FROM media_deletions').get()).toEqual({ n: 0 });
  });

  it('erases finished sessions some days after their end, with their event; unfinished ones stay', async () => {
    await open({ sessionDays: 90 });
    const old = await session();
    const photo = await save(old, 'user_photo');
    // Unopened for 24 hours: the sweeper ends it; its 90 days count from then.
    clock.set(T0 + DAY_MS + 1);
    await app!.sweeper.runOnce();
    expect((await store.getSessionById(old))!.status).toBe('incomplete');
    clock.set(T0 + 91 * DAY_MS);
    const fresh = await session();
    await app!.sweeper.runOnce();
    expect((await store.getSessionById(old))!.report.erasedAt).toBeUndefined();
    clock.set(T0 + 91 * DAY_MS + 2);
    await app!.sweeper.runOnce();
    const tomb = (await store.getSessionById(old))!;
    expect(tomb.report.erasedAt).toBe(T0 + 91 * DAY_MS + 2);
    expect(tomb.clientReferenceId).toBeNull();
    expect(await media.get(photo)).toBeNull();
    const types = (await store.listEvents({ sessionId: old })).map((e) => e.type);
    expect(types).toEqual(['session.status', 'session.status', 'session.erased']);
    expect((await store.getSessionById(fresh))!.report.erasedAt).toBeUndefined();
    // Nothing is due any more: the tombstone is not read again.
    expect(await store.listEndedBefore(clock.now(), 10)).toEqual([]);
  });
});

describe('createRetention', () => {
  it('works in bounded batches, each its own transaction', async () => {
    await open({});
    const s = await session();
    for (let i = 0; i < 5; i++) await save(s, 'frame');
    clock.advance(DAY_MS + 1);
    const faces = sqliteFaceStore(store.db);
    const lifecycle = sqliteLifecycle({ store, db: store.db, faces });
    const eraser = createSessionEraser({ lifecycle, media, clock });
    const settings = { media: { frame: 1 }, sessionDays: null };
    const retention = createRetention({ lifecycle, media, eraser, clock, settings });
    expect(await retention.runOnce(2, 1)).toEqual({ media: 2, sessions: 0 });
    expect(await retention.runOnce(2)).toEqual({ media: 3, sessions: 0 });
    expect(await retention.runOnce(2)).toEqual({ media: 0, sessions: 0 });
  });
});

describe('retentionFromEnv', () => {
  it('reads days per media kind and for sessions, "never", and refuses anything else', () => {
    const r = retentionFromEnv({
      RETENTION_MEDIA_USER_VIDEO_DAYS: '30',
      RETENTION_MEDIA_FRAME_DAYS: 'never',
      RETENTION_MEDIA_SCREENSHOT_DAYS: '0.5',
      RETENTION_SESSION_DAYS: '365',
    });
    expect(r.media).toMatchObject({
      user_video: 30,
      frame: null,
      screenshot: 0.5,
      user_photo: null,
    });
    expect(r.sessionDays).toBe(365);
    expect(retentionFromEnv({}).media.frame).toBe(1);
    expect(retentionFromEnv({}).sessionDays).toBeNull();
    expect(() => retentionFromEnv({ RETENTION_SESSION_DAYS: '0' })).toThrow(
      /RETENTION_SESSION_DAYS must be a number of days above 0, or "never" \(got 0\)/,
    );
    expect(() => retentionFromEnv({ RETENTION_MEDIA_USER_PHOTO_DAYS: 'soon' })).toThrow(
      /RETENTION_MEDIA_USER_PHOTO_DAYS/,
    );
    expect(configFromEnv({ RETENTION_SESSION_DAYS: '7' }).retention.sessionDays).toBe(7);
  });
});
