/**
 * The face nodes through the real routes (`app.inject`), real SQLite, the real analyzer on the
 * package-shipped fixture photos (skipped when `npm run fixtures` has not run).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHumanAnalyzer } from '../face-analysis/human-analyzer';
import { createApiKey } from '../keys';
import {
  blinkingAstronaut,
  fixtureJpeg,
  missingFixtures,
  openLivenessApp,
  type LivenessApp,
} from '../liveness/test-support';

const FILES = ['astronaut.png', 'astronaut-rotated.png', 'camera.png', 'coffee.png'];
const missing = missingFixtures(FILES);
const analyzer = createHumanAnalyzer();

/** scan (face_scan) → compare (face_compare) → recog (recognition) → ends. */
const flow = (scan: Record<string, unknown> = {}) => [
  { id: 'start', type: 'start', outcome: 'scan' },
  {
    id: 'scan',
    type: 'face_scan',
    referenceImageKey: 'referenceImage',
    ...scan,
    outcomes: { passed: 'compare', notPassed: 'compare', error: 'failed', cancelled: 'failed' },
  },
  {
    id: 'compare',
    type: 'face_compare',
    sourceA: { source: 'faceScan' },
    sourceB: { source: 'providedData', providedDataKey: 'referenceImage' },
    outcomes: { match: 'recog', noMatch: 'recog', imageUnavailable: 'recog' },
  },
  {
    id: 'recog',
    type: 'recognition',
    outcomes: { recognized: 'known', newUser: 'done', noFace: 'failed' },
  },
  { id: 'known', type: 'end' },
  { id: 'done', type: 'end' },
  { id: 'failed', type: 'end' },
];

const dataUrl = (file: string) => `data:image/jpeg;base64,${fixtureJpeg(file)}`;

describe.skipIf(missing.length > 0)('face nodes over the routes', () => {
  let t: LivenessApp;
  let globexKey: string;

  beforeAll(async () => {
    blink = blinkingAstronaut();
    t = await openLivenessApp({ analyzer, livenessWorker: 'manual' });
    globexKey = (
      await createApiKey(t.store, { accountName: 'globex', mode: 'live', now: Date.now() })
    ).key;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await analyzer.close();
  });

  async function openSession(
    body: Record<string, unknown>,
    key = t.keys.live,
  ): Promise<{ sessionId: string; token: string }> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/sessions',
      headers: { authorization: `Bearer ${key}` },
      payload: body,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { session, clientSecret } = created.json() as {
      session: { id: string };
      clientSecret: { secret: string };
    };
    const ex = await t.app.inject({
      method: 'POST',
      url: '/client/exchange',
      payload: { clientSecret: clientSecret.secret },
    });
    return { sessionId: session.id, token: (ex.json() as { token: string }).token };
  }

  /**
   * A face_scan capture as the page sends it without challenges, finished and decided by the
   * worker: the baseline, then the frames it takes while it watches for a blink, 200 ms apart.
   */
  async function capture(token: string, images: string[], nodeId = 'scan') {
    const start = await t.client(token, 'POST', `/nodes/${nodeId}/liveness/start`, {});
    expect(start.status, start.raw).toBe(200);
    const { attemptId } = start.body as { attemptId: string; challenges: string[] };
    for (const [i, image] of images.entries()) {
      const f = await t.client(token, 'POST', `/nodes/${nodeId}/liveness/${attemptId}/frames`, {
        role: i === 0 ? 'baseline' : 'between',
        t: i * 200,
        image,
      });
      expect(f.status, f.raw).toBe(202);
    }
    const fin = await t.client(token, 'POST', `/nodes/${nodeId}/liveness/${attemptId}/finish`, {
      ended: 'done',
    });
    expect(fin.status).toBe(202);
    await t.app.liveness.drain();
    const st = await t.client(token, 'GET', `/nodes/${nodeId}/liveness/${attemptId}`);
    expect(st.body.status).toBe('decided');
    return { ...(start.body as { attemptId: string; challenges: string[] }), status: st.body };
  }
  /** The astronaut blinking once (a person: the capture is compared). */
  let blink: string[];
  /** Four frames of one picture: nothing moves, the eyes least of all. */
  const still = (file: string) => Array<string>(4).fill(fixtureJpeg(file));

  const report = async (sessionId: string) => {
    const s = await t.store.getSessionById(sessionId);
    if (!s) throw new Error(`no session ${sessionId}`);
    return s;
  };
  const nodeReport = async (sessionId: string, nodeId: string) =>
    (await report(sessionId)).report.nodeReports.find((r) => r.nodeId === nodeId);

  it('the same person across two captures passes, matches, and is then a known user', async () => {
    const { sessionId, token } = await openSession({
      flow: flow(),
      clientReferenceId: 'user-1',
      providedData: { referenceImage: dataUrl('astronaut-rotated.png'), name: 'Eileen' },
    });
    const attempt = await capture(token, blink);
    expect(attempt.challenges).toEqual([]);
    const scan = await nodeReport(sessionId, 'scan');
    expect(scan?.outcome).toBe('passed');
    expect(scan?.report?.['similarity']).toBeGreaterThanOrEqual(
      scan?.report?.['threshold'] as number,
    );
    expect(scan?.report?.['reference']).toEqual({
      source: 'providedData',
      providedDataKey: 'referenceImage',
    });

    const compare = await t.client(token, 'POST', '/nodes/compare/run', {});
    expect(compare.status, compare.raw).toBe(200);
    expect(compare.body.position.nodeId).toBe('recog');
    expect((await nodeReport(sessionId, 'compare'))?.outcome).toBe('match');

    const recog = await t.client(token, 'POST', '/nodes/recog/run', {});
    expect(recog.body.position).toMatchObject({ status: 'complete' });
    const r = await report(sessionId);
    expect(r.report.nodeReports.find((n) => n.nodeId === 'recog')?.outcome).toBe('newUser');
    expect(r.report.isVerified).toBe(true);
    // The user photo's event, as for liveness.
    const events = await t.store.listEvents({ sessionId });
    expect(events.filter((e) => e.type === 'media.user_photo')).toHaveLength(1);
  }, 60_000);

  /**
   * A face_scan whose first capture is retried with `reason`, then passes when the astronaut
   * blinks; returns the node report and its two attempts.
   */
  async function retriedThenBlinks(first: string[], reason: string) {
    const { sessionId, token } = await openSession({
      flow: flow(),
      providedData: { referenceImage: dataUrl('astronaut-rotated.png') },
    });
    const tried = await capture(token, first);
    expect(tried.status.retry).toEqual({ reason, attemptsLeft: 2 });
    expect(await nodeReport(sessionId, 'scan')).toBeUndefined();
    await capture(token, blink);
    const scan = await nodeReport(sessionId, 'scan');
    expect(scan?.outcome).toBe('passed');
    return { scan, attempts: scan?.report?.['attempts'] as Record<string, unknown>[] };
  }

  it('a capture without a face is tried again with its reason; a mismatch is not', async () => {
    const { scan, attempts } = await retriedThenBlinks(still('coffee.png'), 'noFace');
    expect(attempts.map((a) => [a['outcome'], a['reason'], a['retried']])).toEqual([
      ['error', 'noFace', true],
      ['passed', null, false],
    ]);
    expect(attempts[1]?.['match']).toBe(scan?.report?.['similarity']);

    const other = await openSession({
      flow: flow(),
      providedData: { referenceImage: dataUrl('camera.png') },
    });
    const mismatch = await capture(other.token, blink);
    expect(mismatch.status.retry).toBeUndefined();
    expect((await nodeReport(other.sessionId, 'scan'))?.outcome).toBe('notPassed');
  }, 60_000);

  it('a capture whose eyes never close is tried again with the reason noBlink, never compared', async () => {
    // The same person, held still: a picture in the oval sends exactly this.
    const { scan, attempts } = await retriedThenBlinks(still('astronaut.png'), 'noBlink');
    expect(attempts.map((a) => [a['outcome'], a['reason'], a['retried']])).toEqual([
      ['notPassed', 'noBlink', true],
      ['passed', null, false],
    ]);
    // Not compared: no match figure for the attempt that did not blink.
    expect(attempts[0]).not.toHaveProperty('match');
    const [never, blinked] = attempts.map((a) => a['blink'] as Record<string, number | boolean>);
    expect(never).toMatchObject({ readings: 4, ratio: 1, blink: false });
    expect(blinked).toMatchObject({ readings: 4, blink: true });
    expect(blinked!['ratio']).toBeLessThan(0.65);
    const capture2 = scan?.report?.['capture'] as { blink: { frameIndex: number } };
    expect(capture2.blink.frameIndex).toBe(2);
  }, 60_000);

  it('two different people do not pass or match; recognition finds the earlier session', async () => {
    const { sessionId, token } = await openSession({
      flow: flow(),
      clientReferenceId: 'user-2',
      providedData: { referenceImage: dataUrl('camera.png') },
    });
    await capture(token, blink);
    const scan = await nodeReport(sessionId, 'scan');
    expect(scan?.outcome).toBe('notPassed');
    expect(scan?.report?.['similarity']).toBeLessThan(scan?.report?.['threshold'] as number);
    await t.client(token, 'POST', '/nodes/compare/run', {});
    expect((await nodeReport(sessionId, 'compare'))?.outcome).toBe('noMatch');
    const recog = await t.client(token, 'POST', '/nodes/recog/run', {});
    expect(recog.body.position).toMatchObject({ status: 'complete' });
    const rec = await nodeReport(sessionId, 'recog');
    expect(rec?.outcome).toBe('recognized');
    expect(rec?.report).toMatchObject({
      clientReferenceId: 'user-1',
      providedData: { name: 'Eileen' },
    });
  }, 60_000);

  it('recognition never looks at another mode or another account', async () => {
    for (const key of [t.keys.test, globexKey]) {
      const { sessionId, token } = await openSession(
        { flow: flow(), providedData: { referenceImage: dataUrl('astronaut-rotated.png') } },
        key,
      );
      await capture(token, blink);
      await t.client(token, 'POST', '/nodes/compare/run', {});
      await t.client(token, 'POST', '/nodes/recog/run', {});
      const rec = await nodeReport(sessionId, 'recog');
      expect(rec?.outcome).toBe('newUser');
      expect(rec?.report?.['compared']).toBe(0);
    }
  }, 60_000);

  it('refuses reference URLs at loopback and metadata addresses: the scan ends in error', async () => {
    for (const url of ['https://127.0.0.1:9/me.jpg', 'https://169.254.169.254/latest/meta-data/']) {
      const { sessionId, token } = await openSession({
        flow: flow(),
        providedData: { referenceImage: url },
      });
      await capture(token, blink);
      const scan = await nodeReport(sessionId, 'scan');
      expect(scan?.outcome).toBe('error');
      expect(scan?.report).toMatchObject({ reason: 'referenceRefused' });
      expect(String(scan?.report?.['message'])).toMatch(/loopback|link-local/);
    }
  }, 60_000);

  it('without a reference the scan is an error; with challenges they come from the server', async () => {
    const { sessionId, token } = await openSession({
      flow: flow({ referenceImageKey: undefined, requireLivenessChallenge: true }),
    });
    const start = await t.client(token, 'POST', '/nodes/scan/liveness/start', {});
    expect(start.body.challenges).toHaveLength(3);
    const { sessionId: s2, token: t2 } = await openSession({
      flow: flow({ referenceImageKey: undefined }),
    });
    await capture(t2, blink);
    const scan = await nodeReport(s2, 'scan');
    expect(scan).toMatchObject({ outcome: 'error', report: { reason: 'noReference' } });
    expect(sessionId).not.toBe(s2);
  }, 60_000);

  it('face_compare without a capture is imageUnavailable; run refuses other nodes', async () => {
    const compareFirst = [{ id: 'start', type: 'start', outcome: 'compare' }, ...flow().slice(2)];
    const { sessionId, token } = await openSession({
      flow: compareFirst,
      providedData: { referenceImage: dataUrl('astronaut.png') },
    });
    const wrong = await t.client(token, 'POST', '/nodes/recog/run', {});
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('node_not_current');
    const bad = await t.client(token, 'POST', '/nodes/compare/run', { x: 1 });
    expect(bad.status).toBe(400);
    const ok = await t.client(token, 'POST', '/nodes/compare/run', {});
    expect(ok.status).toBe(200);
    const c = await nodeReport(sessionId, 'compare');
    expect(c?.outcome).toBe('imageUnavailable');
    expect(c?.report).toMatchObject({ sourceA: { source: 'faceScan', reason: 'noImage' } });

    const { token: t3 } = await openSession({ flow: flow(), providedData: {} });
    const notRun = await t.client(t3, 'POST', '/nodes/scan/run', {});
    expect(notRun.body.error.code).toBe('outcome_not_allowed');
  }, 60_000);
});
