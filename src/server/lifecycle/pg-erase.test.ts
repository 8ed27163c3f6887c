/**
 * Erasing a session (docs/lifecycle.md) on a real `idv serve` over PostgreSQL (a throwaway
 * cluster; `DATABASE_URL`), media in a temporary data folder, a real webhook receiver registered
 * with `idv webhooks add`, and `idv sessions erase` under the same `DATABASE_URL`: the key cases
 * of erase.test.ts, on the other database.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main';
import { startServer, type RunningServer } from '../main';
import { connectPg, type Pg } from '../store/pg/client';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { startReceiver, type Receiver } from '../webhooks/test-support';
import { apiCall, openedSession, TINY_JPEG } from './test-support';

let cluster: PgCluster;
let pg: Pg;
let dir: string;
let env: Record<string, string>;
let server: RunningServer;
let receiver: Receiver;
let key: string;
let otherKey: string;

async function idv(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join('\n') };
}

const call = (method: string, path: string, opts: { key?: string } = {}) =>
  apiCall(server.url, opts.key ?? key, method, path);

const count = async (table: string, column: string, values: string[]) => {
  const [r] = await pg<{ n: number }[]>`SELECT count(*)::int AS n FROM ${pg(table)}
    WHERE ${pg(column)} = ANY(${values}::text[])`;
  return r!.n;
};

/** A session with something in every table an erasure empties; its ids. */
async function seeded(reference: string) {
  const { sessionId, secret, token } = await openedSession(server.url, key, reference);
  const { ctx, liveness } = server.app;
  const s = (await ctx.store.getSessionById(sessionId))!;
  const base = { sessionId: s.id, accountId: s.accountId, mode: s.mode, contentType: 'image/jpeg' };
  const photo = await ctx.media.save({ ...base, kind: 'user_photo', bytes: TINY_JPEG });
  const frame = await ctx.media.save({ ...base, kind: 'frame', bytes: TINY_JPEG });
  const now = Date.now();
  await ctx.faces.table.setMediaEmbedding(photo.id, [0.1, 0.2], now);
  await pg`INSERT INTO face_enroll_pending (session_id, noted_at) VALUES (${s.id}, ${now})`;
  await ctx.faces.table.addKnown(
    { ...base, clientReferenceId: reference },
    photo.id,
    [0.1, 0.2],
    now,
  );
  const attemptId = `att_${reference}`;
  await liveness.attempts.start(
    {
      id: attemptId,
      sessionId: s.id,
      nodeId: 'perm',
      accountId: s.accountId,
      mode: s.mode,
      challenges: [],
      timeoutSeconds: 30,
      maxFrames: 10,
      issuedAt: now,
      expiresAt: now + 60_000,
    },
    { maxStarts: 10, maxAttempts: 3 },
  );
  await liveness.attempts.addFrame(
    { attemptId, role: 'baseline', challengeIndex: null, t: 0, receivedAt: now, mediaId: frame.id },
    now,
    // A kind no worker takes: the frame stays unanalysed.
    () => ({ kind: 'test.none', payload: {} }),
  );
  await pg`INSERT INTO video_frames (session_id, seq, t, media_id, received_at)
    VALUES (${s.id}, 0, 0, ${frame.id}, ${now})`;
  const otp = {
    sessionId: s.id,
    nodeId: 'otp',
    channel: 'email' as const,
    destination: 'ann@example.com',
    codeHash: 'h',
    sentAt: now,
    expiresAt: now + 300_000,
  };
  const limits = { perNode: 5, perSession: 5, destinationsPerSession: 3 };
  expect(
    await ctx.store.claimOtpSend({ otp, chosenByPage: false, resendAfterMs: 0, limits }),
  ).toEqual({ ok: true });
  return { id: s.id, secret, token, photo, frame };
}

/** What is left of a session in every table an erasure empties. */
async function leftOf(id: string, mediaIds: string[]) {
  return {
    media: await count('media', 'session_id', [id]),
    embeddings: await count('face_media_embeddings', 'media_id', mediaIds),
    known: await count('face_known', 'session_id', [id]),
    pending: await count('face_enroll_pending', 'session_id', [id]),
    attempts: await count('liveness_attempts', 'session_id', [id]),
    frames: await count('liveness_frames', 'media_id', mediaIds),
    videoFrames: await count('video_frames', 'session_id', [id]),
    otps: await count('otps', 'session_id', [id]),
    otpSends: await count('otp_sends', 'session_id', [id]),
    tokens: await count('client_tokens', 'session_id', [id]),
    idempotency: await count('idempotency_keys', 'session_id', [id]),
    files: existsSync(join(dir, 'media', 'sessions', id)),
  };
}

const erasedEvents = async (id: string) =>
  (await server.app.ctx.store.listEvents({ sessionId: id })).filter(
    (e) => e.type === 'session.erased',
  );

beforeAll(async () => {
  cluster = await startPgCluster();
  const url = await cluster.newDatabase();
  dir = mkdtempSync(join(tmpdir(), 'idv-pg-erase-'));
  env = {
    DATA_DIR: dir,
    DATABASE_URL: url,
    PORT: '0',
    HOST: '127.0.0.1',
    WEBHOOK_POLL_MS: '100',
    LOG_LEVEL: 'silent',
  };
  key = (await idv('keys', 'create', '--mode', 'test')).out[0]!;
  otherKey = (await idv('keys', 'create', '--mode', 'test', '--account', 'other')).out[0]!;
  receiver = await startReceiver();
  expect((await idv('webhooks', 'add', receiver.url)).code).toBe(0);
  server = await startServer({ env, log: () => {}, build: false });
  pg = connectPg(url, { max: 2 });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await pg?.end({ timeout: 1 });
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /sessions/:id/erase on PostgreSQL', () => {
  it('removes media, report data, face-index entries and codes; keeps a tombstone; fires session.erased', async () => {
    const s = await seeded('user-42');
    const ids = [s.photo.id, s.frame.id];
    const url = server.app.ctx.media.signedUrl(s.photo.id).url;
    expect((await fetch(url)).status).toBe(200);
    const before = await leftOf(s.id, ids);
    expect(
      Object.values(before).every((v) => v === true || (typeof v === 'number' && v > 0)),
      JSON.stringify(before),
    ).toBe(true);

    const r = await call('POST', `/sessions/${s.id}/erase`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const tomb = r.body.session;
    expect(tomb).toMatchObject({ id: s.id, status: 'incomplete' });
    expect(typeof tomb.erasedAt).toBe('number');
    expect(Object.keys(tomb.settings)).toEqual(['flow']);
    expect(tomb.report).toMatchObject({ transcript: [], nodeReports: [], isVerified: false });
    expect(JSON.stringify(tomb)).not.toMatch(/user-42|ann@example|Ann Example|gold/);
    expect(await leftOf(s.id, ids)).toEqual({
      media: 0,
      embeddings: 0,
      known: 0,
      pending: 0,
      attempts: 0,
      frames: 0,
      videoFrames: 0,
      otps: 0,
      otpSends: 0,
      tokens: 0,
      idempotency: 0,
      files: false,
    });
    expect(await pg`SELECT storage_key FROM media_deletions`).toHaveLength(0);
    expect(await pg`SELECT 1 FROM session_ends WHERE session_id = ${s.id}`).toHaveLength(0);
    expect((await fetch(url)).status).toBe(404);

    const page = await fetch(`${server.url}/client/session`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    expect(page.status).toBe(401);
    expect((await call('GET', `/sessions/${s.id}`)).body.session.erasedAt).toBe(tomb.erasedAt);
    expect((await call('GET', '/sessions?search=user-42')).body.sessions).toEqual([]);

    // Delivered, signed, after the status changes the erasure made.
    await receiver.waitFor(4, 10_000);
    const types = receiver.requests.map((q) => JSON.parse(q.body.toString()) as { type: string });
    expect(types.map((e) => e.type)).toEqual([
      'session.status',
      'session.status',
      'session.status',
      'session.erased',
    ]);
    expect(receiver.requests[3]!.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]+$/);
    expect(JSON.parse(receiver.requests[3]!.body.toString())).toMatchObject({
      type: 'session.erased',
      sessionId: s.id,
    });
  });

  it('is idempotent, scoped to the account and mode, and 404s an unknown id', async () => {
    const s = await seeded('user-43');
    const first = await call('POST', `/sessions/${s.id}/erase`);
    expect(first.status).toBe(200);
    const second = await call('POST', `/v1/sessions/${s.id}/erase`);
    expect(second.status).toBe(200);
    expect(second.body.session.erasedAt).toBe(first.body.session.erasedAt);
    expect(await erasedEvents(s.id)).toHaveLength(1);

    const other = await seeded('user-44');
    const foreign = await call('POST', `/sessions/${other.id}/erase`, { key: otherKey });
    expect(foreign.status).toBe(404);
    expect((await call('GET', `/sessions/${other.id}`)).body.session.erasedAt).toBeUndefined();
    expect(await erasedEvents(other.id)).toHaveLength(0);
    expect((await call('POST', '/sessions/sess_0000000000000000deadbeef/erase')).status).toBe(404);
  });

  it('is all or nothing: a part that fails leaves the session, its media and events as they were', async () => {
    const s = await seeded('user-45');
    const ids = [s.photo.id, s.frame.id];
    const before = await leftOf(s.id, ids);
    await pg.unsafe(`CREATE FUNCTION erase_fails() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'disk on fire'; END $$;
      CREATE TRIGGER erase_fails BEFORE DELETE ON liveness_attempts
      FOR EACH ROW EXECUTE FUNCTION erase_fails();`);
    try {
      const r = await call('POST', `/sessions/${s.id}/erase`);
      expect(r.status).toBe(500);
      expect(r.body.error.type).toBe('api_error');
      expect(r.body.error.message).not.toMatch(/disk on fire/);
    } finally {
      await pg.unsafe(
        'DROP TRIGGER erase_fails ON liveness_attempts; DROP FUNCTION erase_fails();',
      );
    }
    expect(await leftOf(s.id, ids)).toEqual(before);
    expect(await pg`SELECT storage_key FROM media_deletions`).toHaveLength(0);
    const read = (await call('GET', `/sessions/${s.id}`)).body.session;
    expect(read.erasedAt).toBeUndefined();
    expect(read.status).toBe('inProgress');
    expect(read.settings.clientReferenceId).toBe('user-45');
    expect(await erasedEvents(s.id)).toHaveLength(0);
    expect((await call('POST', `/sessions/${s.id}/erase`)).status).toBe(200);
    expect((await leftOf(s.id, ids)).media).toBe(0);
  });
});

describe('idv sessions erase under DATABASE_URL', () => {
  it('erases beside the running server, which reads the tombstone; again: already erased', async () => {
    const s = await seeded('user-46');
    const r = await idv('sessions', 'erase', s.id);
    expect(r.code, r.err).toBe(0);
    expect(r.out[0]).toMatch(new RegExp(`^${s.id}\\terased\\t`));
    expect(await leftOf(s.id, [s.photo.id, s.frame.id])).toMatchObject({
      media: 0,
      attempts: 0,
      known: 0,
      files: false,
    });
    expect(await erasedEvents(s.id)).toHaveLength(1);
    // No cache in front of PostgreSQL: the server reads the tombstone at once.
    expect((await call('GET', `/sessions/${s.id}`)).body.session.erasedAt).toEqual(
      expect.any(Number),
    );
    const again = await idv('sessions', 'erase', '--json', s.id);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out[0]!)).toMatchObject({ id: s.id, erased: false });
    const unknown = await idv('sessions', 'erase', 'sess_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no session sess_nope/);
  });
});
