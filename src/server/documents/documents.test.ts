/**
 * The reader on rendered documents and the routes through `app.inject`, on real parts: Chromium
 * renders a few specimens with Debian's OCR-B font (needs `npm run fixtures` for the face), the
 * app runs on a SQLite file in a temporary folder, tesseract, zxing-wasm and the face models are
 * the real ones. The routes sit in a small Fastify scope with the client-token hook, as createApp
 * will register them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  forgedPassport,
  makeDocuments,
  type ManifestEntry,
} from '../../../scripts/documents/make-documents';
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
import {
  createDocumentReader,
  createDocuments,
  createTextOcr,
  documentRoutes,
  planFor,
  scanSide,
  type DocumentReader,
  type MrzOcr,
} from '.';
import { faceCheck } from './checks/face';
import { loadTemplates } from './templates';
import type { Templates } from './glyphs';

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
let textOcr: MrzOcr;
let t: LivenessApp;
/** How many times the reader looked at a glyph template (0: no zone was read). */
let templateLooks = 0;
let app: FastifyInstance;
const photo = (e: ManifestEntry) => readFileSync(join(dir, e.file));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idv-docs-'));
  docs = await makeDocuments(
    [
      specimen(11, 'passport', 'valid', 'mild'),
      specimen(12, 'passport', 'broken_check', 'clean'),
      specimen(13, 'id', 'expired', 'clean'),
      specimen(14, 'dl', 'valid', 'mild'),
      specimen(15, 'td2', 'valid', 'clean'),
      specimen(16, 'visa-b', 'valid', 'clean'),
      forgedPassport(17),
      specimen(18, 'id', 'valid', 'clean'),
      // A seed whose portrait the face models missed when the screen was set at 150 dpi.
      specimen(9101, 'id', 'valid', 'clean', 'second'),
      // A licence on a screen whose barcode does not come through the moiré.
      specimen(176, 'dl', 'screen', 'moderate'),
      // A VOID stamp whose grey large print tesseract reads `/QID`.
      specimen(9102, 'passport', 'void', 'moderate'),
    ],
    dir,
  );
  const templates = loadTemplates();
  const counted = new Proxy(templates, {
    get(target, key) {
      templateLooks++;
      return target[key as string];
    },
  }) as Templates;
  reader = createDocumentReader({
    analyzer: async () => (await import('../face-analysis/human-analyzer')).createHumanAnalyzer(),
    templates: counted,
  });
  textOcr = createTextOcr();
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
    textOcr: () => textOcr,
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
  await textOcr?.close();
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
const upload = (
  token: string,
  e: ManifestEntry,
  side: 'front' | 'back' = 'front',
  documentType?: string,
  file = e.file,
) =>
  post(token, '', {
    side,
    image: readFileSync(join(dir, file)).toString('base64'),
    ...(documentType ? { documentType } : {}),
  });
const byId = (prefix: string) => docs.find((d) => d.id.startsWith(prefix))!;
const nodeReport = async (sessionId: string) =>
  (await sessionOf(sessionId)).report.nodeReports.find((n) => n.nodeId === 'doc')!;
type Checks = { name: string; result: string; detail?: string }[];
const sessionOf = async (id: string) => (await t.store.getSessionById(id))!;

// Each read is seconds of real OCR (several reads a test), and several times that on a busy
// machine: these wait for the reader, not for a figure.
const READS = { timeout: 120_000 };

describe('the reader on rendered documents', READS, () => {
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
  it('reads a TD2 card and an MRV-B visa, telling them apart by their code', async () => {
    const td2 = byId('td2-');
    const a = await reader.read(photo(td2), clock.now(), planFor('id', 'front'));
    expect([a.status, a.mrz?.format]).toEqual(['read', 'TD2']);
    expect(a.mrz?.data).toEqual(td2.expected);
    const visa = byId('visa-b-');
    const b = await reader.read(photo(visa), clock.now(), planFor('visa', 'front'));
    expect([b.status, b.mrz?.format]).toEqual(['read', 'MRV-B']);
    expect(b.mrz?.data).toEqual(visa.expected);
  });
  it('reads a driving licence’s AAMVA barcode from its back', async () => {
    const dl = byId('dl-');
    const r = await reader.read(photo(dl), clock.now(), planFor('dl', 'back'));
    expect([r.status, r.method]).toEqual(['read', 'barcode']);
    expect(r.licence?.data).toEqual(dl.expected);
  });
  it('reads nothing on a side that has nothing to read (an ID card’s front), but finds the card', async () => {
    const id = byId('id-valid-');
    templateLooks = 0;
    const front = await reader.read(
      readFileSync(join(dir, id.front!)),
      clock.now(),
      planFor('id', 'front'),
    );
    expect(front.method).toBe('none');
    expect(front.page?.shape).toBe('TD1');
    expect(templateLooks).toBe(0);
    // The same photo read without a plan is searched for every zone.
    await reader.read(readFileSync(join(dir, id.front!)), clock.now());
    expect(templateLooks).toBeGreaterThan(0);
  });
  it('finds the portrait of a card printed by another press (a halftoned photo) where it goes', async () => {
    const second = docs.find((d) => d.print === 'second')!;
    const front = await reader.read(
      readFileSync(join(dir, second.front!)),
      clock.now(),
      planFor('id', 'front'),
    );
    const face = await reader.findFace(front.page!.gray);
    expect(face).not.toBeNull();
    expect(faceCheck(face)).toEqual({ name: 'face', result: 'passed' });
  });
  it('reads the printed fields a second time only when the first read lacks a value of the zone', async () => {
    let reads = 0;
    const counting: MrzOcr = {
      read: (png) => (reads++, textOcr.read(png)),
      close: async () => undefined,
    };
    const scan = (e: ManifestEntry) =>
      scanSide(reader, counting, {
        image: photo(e),
        side: 'front',
        kind: 'passport',
        allowed: ['passport'],
        mode: 'test',
        today: clock.now(),
        front: null,
      });
    // The large print, then the printed fields once: they show the zone's values.
    const genuine = await scan(docs[0]!);
    expect(genuine.result).toBe('read');
    expect(reads).toBe(2);
    // Another person's printed fields: read all three ways before the visual zone is refused.
    reads = 0;
    const forged = await scan(byId('passport-forged-'));
    expect(forged.documentChecks?.find((c) => c.name === 'visualZone')?.result).toBe('failed');
    expect(reads).toBe(4);
  });
});

describe('POST /client/nodes/:nodeId/document', READS, () => {
  it('a readable passport ends the node scanSuccess with extractedData and the document photo', async () => {
    const s = await t.open(FLOW);
    const r = await upload(s.token, docs[0]!, 'front', 'passport');
    expect(r.status).toBe(200);
    expect(r.body['status']).toBe('read');
    const stored = await sessionOf(s.sessionId);
    expect(stored.report.extractedData).toEqual(docs[0]!.expected);
    const nr = stored.report.nodeReports.find((n) => n.nodeId === 'doc')!;
    expect(nr.outcome).toBe('scanSuccess');
    expect(nr.report?.['fields']).toEqual(docs[0]!.expected);
    // Every forgery and consistency check was made and passed.
    expect((nr.report?.['documentChecks'] as Checks).map((c) => [c.name, c.result])).toEqual([
      ['issuingState', 'passed'],
      ['nationality', 'passed'],
      ['dates', 'passed'],
      ['visualZone', 'passed'],
      ['face', 'passed'],
      ['specimen', 'passed'],
      ['original', 'passed'],
    ]);
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

  it('a driving licence: its front is kept, its back read, with the licence’s class and address', async () => {
    const dl = byId('dl-');
    const s = await t.open(FLOW);
    const front = await upload(s.token, dl, 'front', 'dl', dl.front!);
    expect(front.body).toMatchObject({ status: 'retry', reason: 'front_saved', attempts: 1 });
    const back = await upload(s.token, dl, 'back', 'dl');
    expect(back.body['status']).toBe('read');
    const stored = await sessionOf(s.sessionId);
    expect(stored.report.extractedData).toEqual(dl.expected);
    expect(dl.expected).toMatchObject({ documentType: 'dl', licenceClass: expect.any(String) });
    expect(dl.expected['address']).toMatch(/, [A-Z]{2} /);
    const nr = await nodeReport(s.sessionId);
    expect(nr.report?.['format']).toBe('AAMVA');
    // The face of the front is the document photo; its printed fields match the barcode.
    expect(typeof nr.report?.['documentPhoto']).toBe('string');
    const checks = nr.report?.['documentChecks'] as Checks;
    expect(checks.find((c) => c.name === 'visualZone')?.result).toBe('passed');
    expect(checks.find((c) => c.name === 'face')?.result).toBe('passed');
  });

  it('a licence’s back without a barcode is answered no_barcode', async () => {
    const s = await t.open(FLOW);
    const r = await upload(s.token, docs[0]!, 'back', 'dl');
    expect(r.body).toMatchObject({ status: 'retry', reason: 'no_barcode' });
  });

  it('a licence shown on a screen is refused as a screen even when its barcode does not decode', async () => {
    const screen = byId('dl-screen-');
    const s = await t.open(FLOW, 'live');
    const r = await upload(s.token, screen, 'back', 'dl');
    expect(r.body).toMatchObject({ status: 'retry', reason: 'not_genuine' });
    // Its front, on the same screen, is refused at once rather than kept for the back.
    const front = await upload(s.token, screen, 'front', 'dl', screen.front!);
    expect(front.body).toMatchObject({ status: 'retry', reason: 'not_genuine' });
    await post(s.token, '/cancel');
    const attempts = (await nodeReport(s.sessionId)).report?.['attempts'] as {
      documentChecks: Checks;
    }[];
    const failed = attempts.map((a) => a.documentChecks.filter((c) => c.result === 'failed'));
    expect(failed).toEqual([
      [{ name: 'original', result: 'failed', detail: 'back: moire' }],
      [{ name: 'original', result: 'failed', detail: 'front: moire' }],
    ]);
  });

  it('a VOID stamp is refused by the specimen check, read in its ink', async () => {
    const stamped = byId('passport-void-');
    const s = await t.open(FLOW, 'live');
    expect((await upload(s.token, stamped, 'front', 'passport')).body['reason']).toBe(
      'not_genuine',
    );
    await post(s.token, '/cancel');
    const attempt = (
      (await nodeReport(s.sessionId)).report?.['attempts'] as {
        documentChecks: Checks;
      }[]
    )[0]!;
    expect(attempt.documentChecks.find((c) => c.name === 'specimen')).toMatchObject({
      result: 'failed',
      detail: expect.stringMatching(/^VOID/),
    });
  });

  it('a forged passport (specimen state, another person’s printed fields) is refused, with why', async () => {
    const forged = byId('passport-forged-');
    const live = await t.open(FLOW, 'live');
    const r = await upload(live.token, forged, 'front', 'passport');
    expect(r.body).toMatchObject({ status: 'retry', reason: 'not_genuine' });
    await post(live.token, '/cancel');
    const nr = await nodeReport(live.sessionId);
    const attempt = (nr.report?.['attempts'] as { documentChecks: Checks }[])[0]!;
    const failed = attempt.documentChecks.filter((c) => c.result === 'failed').map((c) => c.name);
    expect(failed).toEqual(['issuingState', 'nationality', 'visualZone']);
    expect((await sessionOf(live.sessionId)).report.extractedData ?? {}).toEqual({});
    // In test mode the specimen state is allowed; the printed fields still disagree.
    const test = await t.open(FLOW, 'test');
    expect((await upload(test.token, forged, 'front', 'passport')).body['reason']).toBe(
      'not_genuine',
    );
    await post(test.token, '/cancel');
    const tr = await nodeReport(test.sessionId);
    const testChecks = (tr.report?.['attempts'] as { documentChecks: Checks }[])[0]!.documentChecks;
    expect(testChecks.filter((c) => c.result === 'failed').map((c) => c.name)).toEqual([
      'visualZone',
    ]);
  });

  it('refuses a document type the node does not allow', async () => {
    const s = await t.open([
      FLOW[0],
      { ...FLOW[1], allowedDocumentTypes: ['passport'] },
      ...FLOW.slice(2),
    ]);
    const r = await upload(s.token, docs[0]!, 'back', 'dl');
    expect(r.status).toBe(400);
    expect(r.body['error']).toMatchObject({ type: 'validation_error' });
    expect(JSON.stringify(r.body)).toContain('does not allow dl; it allows passport');
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
