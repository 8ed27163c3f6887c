/**
 * Whole liveness attempts through `app.inject`, analysed by the real analyzer
 * (`createHumanAnalyzer`, human on tfjs wasm) on the package-shipped photos of `npm run fixtures`,
 * re-encoded as JPEG as the page sends them. Skipped without the fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { createHumanAnalyzer } from '../face-analysis/human-analyzer';
import { manualClock } from '../clock';
import { DEFAULT_LEASE_MS } from '../jobs/worker';
import { DECIDE_JOB, FRAME_JOB } from './service';
import { fixtureJpeg, missingFixtures, openLivenessApp, type LivenessApp } from './test-support';

const FILES = ['astronaut.png', 'astronaut-rotated.png', 'coffee.png'];
const missing = missingFixtures(FILES);
if (missing.length > 0) {
  console.warn(
    `liveness analysis.test: skipped, fixtures missing (${missing.join(', ')}): run npm run fixtures`,
  );
}

type Frame = {
  role: 'baseline' | 'challenge' | 'between';
  challengeIndex?: number;
  t: number;
  image: string;
};

/** A still photo doing the page's routine: baseline, something between, one frame per challenge. */
function stillRoutine(image: string, challenges: number): Frame[] {
  const frames: Frame[] = [{ role: 'baseline', t: 0, image }];
  for (let i = 0; i < challenges; i++) {
    frames.push({ role: 'between', t: 600 + i * 1500, image });
    frames.push({ role: 'challenge', challengeIndex: i, t: 1200 + i * 1500, image });
  }
  return frames;
}

describe.skipIf(missing.length > 0)('liveness decided by the server from real frames', () => {
  let analyzer: FaceAnalyzer;
  let t: LivenessApp;
  const clock = manualClock(Date.UTC(2025, 9, 1, 9));
  const jpegs: Record<string, string> = {};

  beforeAll(async () => {
    analyzer = createHumanAnalyzer();
    await analyzer.load();
    for (const f of FILES) jpegs[f] = fixtureJpeg(f);
    t = await openLivenessApp({ clock, analyzer, livenessWorker: 'manual' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await analyzer?.close();
  });

  async function attempt(frames: Frame[]) {
    const s = await t.open();
    const start = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    const base = `/nodes/live/liveness/${start.body.attemptId}`;
    for (const f of frames) {
      clock.advance(400);
      const r = await t.client(s.token, 'POST', `${base}/frames`, f);
      expect(r.status).toBe(202);
    }
    return { ...s, attemptId: start.body.attemptId as string, base };
  }

  it('a still photo never follows the challenges: inconclusive (challengeFailed), written with its evidence', async () => {
    const a = await attempt(stillRoutine(jpegs['astronaut.png']!, 2));
    const fin = await t.client(a.token, 'POST', `${a.base}/finish`, { ended: 'done' });
    expect(fin.status).toBe(202);
    expect((await t.client(a.token, 'GET', a.base)).body).toEqual({ status: 'analysing' });
    expect(await t.app.liveness.drain()).toBeGreaterThanOrEqual(6);
    const polled = await t.client(a.token, 'GET', a.base);
    expect(polled.body.status).toBe('decided');
    expect(polled.body.position).toMatchObject({
      status: 'complete',
      path: [{ nodeId: 'live', type: 'liveness_detection', outcome: 'inconclusive' }],
    });

    const session = (await t.store.getSessionById(a.sessionId))!;
    const node = session.report.nodeReports.find((r) => r.nodeId === 'live')!;
    expect(node).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'challengeFailed' });
    const report = node.report as Record<string, unknown> & {
      facesPerFrame: number[];
      challenges: { met: boolean; frameIndex: number | null }[];
      bestFrameIndex: number;
      similarity: { min: number };
    };
    expect(report.attemptId).toBe(a.attemptId);
    expect(report.facesPerFrame).toEqual([1, 1, 1, 1, 1]);
    expect(report.challenges.map((c) => c.met)).toEqual([false, false]);
    expect(report.similarity.min).toBeGreaterThan(0.99);
    expect(session.report.livenessDetected).toBe(false);

    // Screenshots: the media ids of the frames used, copied as kind `screenshot`.
    const shots = session.report.screenshots ?? [];
    expect(shots.length).toBeGreaterThanOrEqual(1);
    for (const id of shots) {
      expect(id).toMatch(/^med_/);
      expect((await t.app.ctx.media.get(id))?.kind).toBe('screenshot');
    }
    // The best frame became the user photo, announced by media.user_photo in the outbox.
    const events = await t.store.listEvents({ sessionId: a.sessionId });
    const photoEvents = events.filter((e) => e.type === 'media.user_photo');
    expect(photoEvents).toHaveLength(1);
    const body = JSON.parse(photoEvents[0]!.payload) as {
      id: string;
      sessionId: string;
      media: { id: string; url: string; expires: number; contentType: string };
    };
    expect(body.id).toBe(photoEvents[0]!.id);
    expect(body.sessionId).toBe(a.sessionId);
    expect(body.media.contentType).toBe('image/jpeg');
    expect((await t.app.ctx.media.get(body.media.id))?.kind).toBe('user_photo');
    const url = new URL(body.media.url);
    const download = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/jpeg');
    expect(download.rawPayload.equals(Buffer.from(jpegs['astronaut.png']!, 'base64'))).toBe(true);

    // Integrators read the screenshots as signed URLs.
    const api = await t.app.inject({
      method: 'GET',
      url: `/sessions/${a.sessionId}`,
      headers: { authorization: `Bearer ${t.keys.live}` },
    });
    const apiShots = (api.json() as { session: { report: { screenshots: string[] } } }).session
      .report.screenshots;
    expect(apiShots).toHaveLength(shots.length);
    for (const u of apiShots)
      expect(u).toMatch(/^http:\/\/idv\.test\/media\/med_\w+\?expires=\d+&sig=[0-9a-f]+$/);

    // A re-run of the decision (a worker that died after writing) adds nothing.
    await t.app.liveness.queue.enqueue(DECIDE_JOB, { attemptId: a.attemptId }, clock.now());
    await t.app.liveness.drain();
    const again = (await t.store.getSessionById(a.sessionId))!;
    expect(again.report.nodeReports.filter((r) => r.nodeId === 'live')).toHaveLength(1);
    expect((await t.store.listEvents({ sessionId: a.sessionId })).length).toBe(events.length);
  });

  it('a scene without a face: noFace, and no user photo', async () => {
    const a = await attempt(stillRoutine(jpegs['coffee.png']!, 1));
    await t.client(a.token, 'POST', `${a.base}/finish`, { ended: 'done' });
    await t.app.liveness.drain();
    const session = (await t.store.getSessionById(a.sessionId))!;
    expect(session.report.nodeReports.find((r) => r.nodeId === 'live')).toMatchObject({
      outcome: 'noFace',
    });
    expect(session.position.path.at(-1)).toMatchObject({ outcome: 'noFace' });
    const events = await t.store.listEvents({ sessionId: a.sessionId });
    expect(events.map((e) => e.type)).not.toContain('media.user_photo');
  });

  it('a forged livenessDetected is refused; the server’s own decision stands', async () => {
    const a = await attempt(stillRoutine(jpegs['astronaut.png']!, 2));
    const forged = await t.client(a.token, 'POST', '/nodes/live/result', {
      outcome: 'livenessDetected',
      report: { livenessDetected: true, score: 1 },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe('outcome_not_allowed');
    await t.client(a.token, 'POST', `${a.base}/finish`, { ended: 'done' });
    await t.app.liveness.drain();
    const session = (await t.store.getSessionById(a.sessionId))!;
    expect(session.report.livenessDetected).toBe(false);
    expect(session.report.nodeReports.map((r) => r.outcome)).toEqual(['inconclusive']);
    // Nothing of the forged report is kept (the checks' own scores are in report.presentation).
    expect(session.report.nodeReports.map((r) => r.report?.['score'])).toEqual([undefined]);
  });

  it('a job claimed by a worker that died runs again once its lease has passed', async () => {
    const a = await attempt([{ role: 'baseline', t: 0, image: jpegs['astronaut-rotated.png']! }]);
    // A worker claims the frame's job and dies without finishing it.
    const dead = await t.app.liveness.queue.claim(clock.now(), DEFAULT_LEASE_MS);
    expect(dead).toMatchObject({ kind: FRAME_JOB, payload: { attemptId: a.attemptId, seq: 0 } });
    expect(await t.app.liveness.drain()).toBe(0);
    expect((await t.app.liveness.attempts.frame(a.attemptId, 0))?.analysis).toBeNull();
    clock.advance(DEFAULT_LEASE_MS);
    expect(await t.app.liveness.drain()).toBe(1);
    const analysed = (await t.app.liveness.attempts.frame(a.attemptId, 0))?.analysis;
    expect(analysed && 'faces' in analysed ? analysed.faces.length : -1).toBe(1);
    // The same for the decision: claimed, lost, then run by the next worker.
    await t.client(a.token, 'POST', `${a.base}/finish`, { ended: 'timeout' });
    expect((await t.app.liveness.queue.claim(clock.now(), DEFAULT_LEASE_MS))?.kind).toBe(
      DECIDE_JOB,
    );
    expect(await t.app.liveness.drain()).toBe(0);
    expect((await t.client(a.token, 'GET', a.base)).body.status).toBe('analysing');
    clock.advance(DEFAULT_LEASE_MS);
    expect(await t.app.liveness.drain()).toBe(1);
    expect((await t.client(a.token, 'GET', a.base)).body.status).toBe('decided');
    const node = (await t.store.getSessionById(a.sessionId))!.report.nodeReports[0]!;
    // One frame cannot meet two challenges; the page said it ran out of time.
    expect(node).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'timeout' });
  });
});

describe.skipIf(missing.length > 0)('the background worker (auto)', () => {
  let analyzer: FaceAnalyzer;
  let t: LivenessApp;

  beforeAll(async () => {
    analyzer = createHumanAnalyzer();
    await analyzer.load();
    t = await openLivenessApp({ analyzer });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await analyzer?.close();
  });

  it('analyses frames while they are uploaded, and decides after finish without a drain', async () => {
    const image = fixtureJpeg('astronaut.png');
    const s = await t.open();
    const start = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    const base = `/nodes/live/liveness/${start.body.attemptId}`;
    for (const f of stillRoutine(image, 2)) {
      expect((await t.client(s.token, 'POST', `${base}/frames`, f)).status).toBe(202);
      await new Promise((r) => setTimeout(r, 300));
    }
    const analysed = (await t.app.liveness.attempts.frames(start.body.attemptId)).filter(
      (f) => f.analysis !== null,
    ).length;
    // The page's pace leaves the worker time for most frames before the last one arrives.
    expect(analysed).toBeGreaterThanOrEqual(3);
    await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' });
    let status = 'analysing';
    for (let i = 0; i < 100 && status !== 'decided'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await t.client(s.token, 'GET', base)).body.status;
    }
    expect(status).toBe('decided');
    const session = (await t.store.getSessionById(s.sessionId))!;
    expect(session.report.nodeReports[0]).toMatchObject({ outcome: 'inconclusive' });
  });
});
