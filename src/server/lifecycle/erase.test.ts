/**
 * Erasing a session (docs/lifecycle.md) on a real `idv serve` (SQLite file and media folder in a
 * temporary data folder), a real webhook receiver registered with `idv webhooks add`, and the
 * `idv sessions erase` command beside the running server.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main';
import { startServer, type RunningServer } from '../main';
import { startReceiver, type Receiver } from '../webhooks/test-support';
import { apiCall, openedSession, TINY_JPEG } from './test-support';

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

const call = (method: string, path: string, opts: { key?: string; body?: unknown } = {}) =>
  apiCall(server.url, opts.key ?? key, method, path, opts.body);

const count = (sql: string, ...args: unknown[]) =>
  (server.app.ctx.db!.prepare(sql).get(...args) as { n: number }).n;

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
  ctx
    .db!.prepare('INSERT INTO face_enroll_pending (session_id, noted_at) VALUES (?, ?)')
    .run(s.id, now);
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
  ctx
    .db!.prepare(
      'INSERT INTO video_frames (session_id, seq, t, media_id, received_at) VALUES (?, 0, 0, ?, ?)',
    )
    .run(s.id, frame.id, now);
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
function leftOf(id: string, mediaIds: string[]) {
  const inList = mediaIds.map(() => '?').join(',');
  return {
    media: count('SELECT count(*) AS n FROM media WHERE session_id = ?', id),
    embeddings: count(
      `SELECT count(*) AS n FROM face_media_embeddings WHERE media_id IN (${inList})`,
      ...mediaIds,
    ),
    known: count('SELECT count(*) AS n FROM face_known WHERE session_id = ?', id),
    attempts: count('SELECT count(*) AS n FROM liveness_attempts WHERE session_id = ?', id),
    frames: count(
      `SELECT count(*) AS n FROM liveness_frames WHERE media_id IN (${inList})`,
      ...mediaIds,
    ),
    videoFrames: count('SELECT count(*) AS n FROM video_frames WHERE session_id = ?', id),
    otps: count('SELECT count(*) AS n FROM otps WHERE session_id = ?', id),
    otpSends: count('SELECT count(*) AS n FROM otp_sends WHERE session_id = ?', id),
    tokens: count('SELECT count(*) AS n FROM client_tokens WHERE session_id = ?', id),
    idempotency: count('SELECT count(*) AS n FROM idempotency_keys WHERE session_id = ?', id),
    files: existsSync(join(dir, 'media', 'sessions', id)),
  };
}

const erasedEvents = async (id: string) =>
  (await server.app.ctx.store.listEvents({ sessionId: id })).filter(
    (e) => e.type === 'session.erased',
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idv-erase-'));
  env = {
    DATA_DIR: dir,
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
}, 60_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /sessions/:id/erase', () => {
  it('removes media, report data, face-index entries and codes; keeps a tombstone; fires session.erased', async () => {
    const s = await seeded('user-42');
    const ids = [s.photo.id, s.frame.id];
    const url = server.app.ctx.media.signedUrl(s.photo.id).url;
    expect((await fetch(url)).status).toBe(200);
    expect(
      Object.values(leftOf(s.id, ids)).every((v) => v === true || (typeof v === 'number' && v > 0)),
    ).toBe(true);

    const r = await call('POST', `/sessions/${s.id}/erase`);
    expect(r.status).toBe(200);
    const tomb = r.body.session;
    expect(tomb).toMatchObject({ id: s.id, status: 'incomplete' });
    expect(typeof tomb.erasedAt).toBe('number');
    expect(typeof tomb.finishedAt).toBe('number');
    expect(Object.keys(tomb.settings)).toEqual(['flow']);
    expect(tomb.report).toMatchObject({ transcript: [], nodeReports: [], isVerified: false });
    expect(JSON.stringify(tomb)).not.toMatch(/user-42|ann@example|Ann Example|gold/);
    expect(leftOf(s.id, ids)).toEqual({
      media: 0,
      embeddings: 0,
      known: 0,
      attempts: 0,
      frames: 0,
      videoFrames: 0,
      otps: 0,
      otpSends: 0,
      tokens: 0,
      idempotency: 0,
      files: false,
    });
    expect(count('SELECT count(*) AS n FROM media_deletions')).toBe(0);
    expect((await fetch(url)).status).toBe(404);

    // The page's token and the secret are dead; reads show the tombstone, searches miss it.
    const page = await fetch(`${server.url}/client/session`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    expect(page.status).toBe(401);
    const again = await fetch(`${server.url}/client/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientSecret: s.secret }),
    });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect((await call('GET', `/sessions/${s.id}`)).body.session.erasedAt).toBe(tomb.erasedAt);
    expect((await call('GET', '/sessions?search=user-42')).body.sessions).toEqual([]);
    expect((await call('GET', `/sessions?search=${s.id}`)).body.sessions).toHaveLength(1);

    // Delivered, signed, after the status change the erasure made.
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
    const second = await call('POST', `/v1/sessions/${s.id}/erase`, { body: {} });
    expect(second.status).toBe(200);
    expect(second.body.session.erasedAt).toBe(first.body.session.erasedAt);
    expect(await erasedEvents(s.id)).toHaveLength(1);

    const other = await seeded('user-44');
    const foreign = await call('POST', `/sessions/${other.id}/erase`, { key: otherKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ type: 'not_found_error' });
    expect((await call('GET', `/sessions/${other.id}`)).body.session.erasedAt).toBeUndefined();
    expect(await erasedEvents(other.id)).toHaveLength(0);
    const missing = await call('POST', '/sessions/sess_0000000000000000deadbeef/erase');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Session not found');
  });

  it('is all or nothing: a part that fails leaves the session, its media and events as they were', async () => {
    const s = await seeded('user-45');
    const ids = [s.photo.id, s.frame.id];
    const before = leftOf(s.id, ids);
    const db = server.app.ctx.db!;
    db.exec(`CREATE TRIGGER erase_fails BEFORE DELETE ON liveness_attempts
      BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    try {
      const r = await call('POST', `/sessions/${s.id}/erase`);
      expect(r.status).toBe(500);
      expect(r.body.error.type).toBe('api_error');
      expect(r.body.error.message).not.toMatch(/disk on fire/);
    } finally {
      db.exec('DROP TRIGGER erase_fails');
    }
    expect(leftOf(s.id, ids)).toEqual(before);
    const read = (await call('GET', `/sessions/${s.id}`)).body.session;
    expect(read.erasedAt).toBeUndefined();
    expect(read.status).toBe('inProgress');
    expect(read.settings.clientReferenceId).toBe('user-45');
    expect(await erasedEvents(s.id)).toHaveLength(0);
    expect((await call('POST', `/sessions/${s.id}/erase`)).status).toBe(200);
    expect(leftOf(s.id, ids).media).toBe(0);
  });
});

describe('idv sessions erase', () => {
  it('erases beside the running server, which then reads the tombstone; again: already erased', async () => {
    const s = await seeded('user-46');
    const r = await idv('sessions', 'erase', s.id);
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(new RegExp(`^${s.id}\\terased\\t`));
    expect(leftOf(s.id, [s.photo.id, s.frame.id])).toMatchObject({ media: 0, files: false });
    expect(await erasedEvents(s.id)).toHaveLength(1);
    // Written by another process: the server's read cache notices within its recheck time.
    await new Promise((ok) => setTimeout(ok, 250));
    expect((await call('GET', `/sessions/${s.id}`)).body.session.erasedAt).toEqual(
      expect.any(Number),
    );
    const again = await idv('sessions', 'erase', '--json', s.id);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out[0]!)).toMatchObject({ id: s.id, erased: false });
    const unknown = await idv('sessions', 'erase', 'sess_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no session sess_nope/);
    expect((await idv('sessions', 'wipe', s.id)).code).toBe(2);
  });
});
