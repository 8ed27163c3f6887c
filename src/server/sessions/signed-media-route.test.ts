/**
 * `GET /sessions/:id` with a MediaService in the app context: screenshots come out as signed URLs,
 * and the per-object presentation cache never serves them past their expiry.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '../../core/api';
import type { Flow } from '../../core/flow';
import type { AppContext } from '../context';
import { mediaRoutes } from '../media/routes';
import { jpegBytes, openMediaFixture, partsOf, T0, type MediaFixture } from '../media/test-support';
import { MEDIA_URL_TTL_MS } from '../media/types';
import { sessionRoutes } from '../routes/sessions';
import { secretRecord, sessionRecord } from '../store/records';

const FLOW = [
  { id: 'start', type: 'start', outcome: 'end' },
  { id: 'end', type: 'end' },
] as Flow;

let f: MediaFixture | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  await f?.close();
  app = undefined;
  f = undefined;
});

async function setup() {
  f = openMediaFixture();
  const account = await f.db.ensureAccount('acme', T0);
  const scope = { accountId: account.id, mode: 'live' as const };
  const shot = await f.media.save({
    sessionId: 'sess_0123456789abcdef01234567',
    accountId: account.id,
    mode: 'live',
    kind: 'screenshot',
    contentType: 'image/jpeg',
    bytes: jpegBytes(),
  });
  const session = sessionRecord({
    id: 'sess_0123456789abcdef01234567',
    accountId: account.id,
    status: 'complete',
    createdAt: T0,
    startedAt: T0,
    finishedAt: T0,
    settings: { flow: FLOW },
    report: { transcript: [], nodeReports: [], isVerified: true, screenshots: [shot.id] },
  });
  await f.db.createSession(session, secretRecord(session.id, 'cs_test', T0));
  // Only what GET /sessions/:id reads; the request scope stands in for the API-key hook.
  const ctx = {
    store: f.db,
    clock: f.clock,
    publicUrl: 'http://127.0.0.1:3999',
    media: f.media,
  } as unknown as AppContext;
  app = Fastify();
  app.addHook('onRequest', async (request) => {
    request.apiVersion = LATEST_VERSION;
    request.auth = { scope, key: {} as never };
  });
  sessionRoutes(app, ctx);
  mediaRoutes(app, f.media, { clock: f.clock });
  await app.ready();
  return { f, app, shot, session };
}

describe('GET /sessions/:id with media', () => {
  it('shows screenshots as signed URLs, fresh on every read (never from the cache)', async () => {
    const { f, app, shot, session } = await setup();
    const read = async () => {
      const res = await app.inject({ method: 'GET', url: `/sessions/${session.id}` });
      expect(res.statusCode).toBe(200);
      const url = (res.json().session.report.screenshots as string[])[0] ?? '';
      return url;
    };
    const first = await read();
    expect(partsOf(first).id).toBe(shot.id);
    expect(Number(partsOf(first).expires)).toBe(T0 + MEDIA_URL_TTL_MS);
    const u = new URL(first);
    expect((await app.inject({ method: 'GET', url: u.pathname + u.search })).statusCode).toBe(200);

    f.clock.advance(MEDIA_URL_TTL_MS + 1000);
    expect((await app.inject({ method: 'GET', url: u.pathname + u.search })).statusCode).toBe(403);
    const second = await read();
    expect(Number(partsOf(second).expires)).toBe(T0 + 2 * MEDIA_URL_TTL_MS + 1000);
    const v = new URL(second);
    expect((await app.inject({ method: 'GET', url: v.pathname + v.search })).statusCode).toBe(200);
  });
});
