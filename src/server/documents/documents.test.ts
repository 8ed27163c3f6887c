/**
 * The reader on rendered documents and the routes through `app.inject`, on real parts: Chromium
 * renders three specimens with Debian's OCR-B font (needs `npm run fixtures` for the face), the
 * app runs on a SQLite file in a temporary folder, tesseract and the face models are the real
 * ones. The routes sit in a small Fastify scope with the client-token hook, as createApp will
 * register them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocuments, type ManifestEntry } from '../../../scripts/documents/make-documents';
import { specimen } from '../../../scripts/documents/specimens';
import { DEFAULT_SESSION_TIMEOUTS } from '../sessions/timeouts';
import { clientAccess } from '../client/access';
import { manualClock } from '../clock';
import { createGateway } from '../flow/gateway';
import { bearer } from '../http/auth';
import { ApiError, errorHandler } from '../http/errors';
import { createFsMediaStore, createMediaService } from '../media';
import { openLivenessApp, type LivenessApp } from '../liveness/test-support';
import { automaticMoves } from '../nodes';
import { createDocumentReader, createDocuments, documentRoutes, type DocumentReader } from '.';

const clock = manualClock(Date.UTC(2026, 0, 10, 9));
const FLOW = [
  { id: 'start', type: 'start', outcome: 'doc' },
  {
    id: 'doc',
    type: 'document_scan',
    timeoutSeconds: 60,
    outcomes: { scanSuccess: 'ok', userCancelled: 'gone', scanTimeout: 'late' },
  },
  { id: 'ok', type: 'end' },
  { id: 'gone', type: 'end' },
  { id: 'late', type: 'end' },
];

let dir: string;
let docs: ManifestEntry[];
let reader: DocumentReader;
let t: LivenessApp;
let app: FastifyInstance;
const photo = (e: ManifestEntry) => readFileSync(join(dir, e.file));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idv-docs-'));
  docs = await makeDocuments(
    [
      specimen(11, 'passport', 'valid', 'mild'),
      specimen(12, 'passport', 'broken_check', 'clean'),
      specimen(13, 'id', 'expired', 'clean'),
    ],
    dir,
  );
  reader = createDocumentReader({
    analyzer: async () => (await import('../face-analysis/human-analyzer')).createHumanAnalyzer(),
  });
  const mediaDir = mkdtempSync(join(tmpdir(), 'idv-docs-media-'));
  t = await openLivenessApp({ clock });
  const media = createMediaService({
    db: t.store.db,
    store: createFsMediaStore(mediaDir),
    secret: Buffer.alloc(32, 7),
    publicUrl: 'http://idv.test',
    clock,
  });
  const gateway = createGateway({ store: t.store, clock, automatic: automaticMoves });
  const access = clientAccess({
    store: t.store,
    clock,
    gateway,
    geo: async () => ({}),
    publicUrl: 'http://idv.test',
    timeouts: DEFAULT_SESSION_TIMEOUTS,
  });
  const documents = createDocuments({
    store: t.store,
    gateway,
    media,
    clock,
    reader: () => reader,
  });
  app = Fastify();
  app.setErrorHandler(errorHandler);
  await app.register(
    async (authed) => {
      authed.addHook('onRequest', async (request) => {
        const token = bearer(request.headers.authorization);
        if (!token) throw new ApiError('authentication_error', 'no token');
        request.clientSession = await access.sessionOf(token);
      });
      await authed.register(async (scope) => documentRoutes(scope, { documents }));
    },
    { prefix: '/client' },
  );
  await app.ready();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await reader?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = async (token: string, path: string, body?: unknown) => {
  const r = await app.inject({
    method: 'POST',
    url: `/client/nodes/doc/document${path}`,
    headers: { authorization: `Bearer ${token}` },
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
  return { status: r.statusCode, body: r.json() as Record<string, unknown> };
};
const upload = (token: string, e: ManifestEntry, side: 'front' | 'back' = 'front') =>
  post(token, '', { side, image: photo(e).toString('base64') });
const sessionOf = async (id: string) => (await t.store.getSessionById(id))!;

describe('the reader on rendered documents', () => {
  it('reads a mildly photographed passport exactly', async () => {
    const e = docs[0]!;
    const r = await reader.read(photo(e), clock.now());
    expect(r.status).toBe('read');
    expect(r.mrz?.data).toEqual(e.expected);
  });
  it('does not pass a broken check digit', async () => {
    const r = await reader.read(photo(docs[1]!), clock.now());
    expect(r.status).toBe('checks_failed');
    expect(r.mrz?.checks.some((c) => !c.ok)).toBe(true);
  });
  it('reads an expired ID card and says so', async () => {
    const e = docs[2]!;
    const r = await reader.read(photo(e), clock.now());
    expect(r.status).toBe('expired');
    expect(r.mrz?.data).toEqual(e.expected);
  });
});

describe('POST /client/nodes/:nodeId/document', () => {
  it('a readable passport ends the node scanSuccess with extractedData and the document photo', async () => {
    const s = await t.open(FLOW);
    const r = await upload(s.token, docs[0]!);
    expect(r.status).toBe(200);
    expect(r.body['status']).toBe('read');
    const stored = await sessionOf(s.sessionId);
    expect(stored.report.extractedData).toEqual(docs[0]!.expected);
    const nr = stored.report.nodeReports.find((n) => n.nodeId === 'doc')!;
    expect(nr.outcome).toBe('scanSuccess');
    expect(nr.report?.['fields']).toEqual(docs[0]!.expected);
    const photoId = nr.report?.['documentPhoto'];
    expect(typeof photoId).toBe('string');
    const events = await t.store.listEvents({ sessionId: s.sessionId });
    expect(events.map((e) => e.type)).toContain('media.document_photo');
  });

  it('a broken check digit and an expired card are retries recorded with the node staying', async () => {
    const s = await t.open(FLOW);
    const broken = await upload(s.token, docs[1]!);
    expect(broken.body).toMatchObject({ status: 'retry', reason: 'checks_failed', attempts: 1 });
    const expired = await upload(s.token, docs[2]!, 'back');
    expect(expired.body).toMatchObject({ status: 'retry', reason: 'expired', attempts: 2 });
    expect((await sessionOf(s.sessionId)).position.nodeId).toBe('doc');
    const cancel = await post(s.token, '/cancel');
    expect(cancel.status).toBe(200);
    const stored = await sessionOf(s.sessionId);
    const nr = stored.report.nodeReports.find((n) => n.nodeId === 'doc')!;
    expect(nr.outcome).toBe('userCancelled');
    const attempts = nr.report?.['attempts'] as { result: string }[];
    expect(attempts.map((a) => a.result)).toEqual(['checks_failed', 'expired']);
    expect(stored.report.extractedData ?? {}).toEqual({});
  });

  it('refuses a body that is not a JPEG, listing every problem, and changes nothing', async () => {
    const s = await t.open(FLOW);
    const r = await post(s.token, '', { side: 'top', image: 'not base64!' });
    expect(r.status).toBe(400);
    const err = r.body['error'] as { type: string; details: { path: string }[] };
    expect(err.type).toBe('validation_error');
    expect(err.details.map((d) => d.path)).toContain('side');
    const png = await post(s.token, '', { side: 'front', image: 'iVBORw0KGgo=' });
    expect(png.status).toBe(400);
    expect((await sessionOf(s.sessionId)).report.nodeReports).toEqual([]);
  });

  it('the timeout is refused early and accepted once the node’s time has passed', async () => {
    const s = await t.open(FLOW);
    const early = await post(s.token, '/timeout');
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ error: { code: 'scan_not_timed_out' } });
    clock.advance(61_000);
    const late = await post(s.token, '/timeout');
    expect(late.status).toBe(200);
    const nr = (await sessionOf(s.sessionId)).report.nodeReports.find((n) => n.nodeId === 'doc')!;
    expect(nr.outcome).toBe('scanTimeout');
  });
});
