/**
 * The liveness routes through `app.inject` on a real SQLite file, jobs left queued (manual
 * worker): what is accepted, what is refused, and that a refusal changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVENESS_LIMITS } from '../../core/api';
import { CHALLENGES } from '../../core/liveness';
import { manualClock } from '../clock';
import {
  LIVENESS_FLOW,
  openLivenessApp,
  PERMISSIONS_FIRST_FLOW,
  smallJpeg,
  type LivenessApp,
} from './test-support';

const clock = manualClock(Date.UTC(2025, 9, 1, 9));
let t: LivenessApp;
const image = smallJpeg();

beforeAll(async () => {
  t = await openLivenessApp({ clock, livenessWorker: 'manual' });
});
afterAll(() => t.close());

async function started(flow: unknown[] = LIVENESS_FLOW) {
  const s = await t.open(flow);
  const r = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
  expect(r.status).toBe(200);
  return {
    ...s,
    attempt: r.body as { attemptId: string; challenges: string[]; expiresAt: number },
  };
}

const frame = (over: Record<string, unknown> = {}) => ({ role: 'baseline', t: 0, image, ...over });

describe('POST /client/nodes/:nodeId/liveness/start', () => {
  it('issues the node’s number of challenges, picked by the server, and the attempt’s times', async () => {
    const s = await t.open();
    const r = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(r.status).toBe(200);
    expect(r.body.attemptId).toMatch(/^att_[0-9a-f]+$/);
    expect(r.body.challenges).toHaveLength(2);
    for (const c of r.body.challenges) expect(CHALLENGES).toContain(c);
    expect(r.body.challenges[0]).not.toBe(r.body.challenges[1]);
    expect(r.body.issuedAt).toBe(clock.now());
    expect(r.body.expiresAt).toBe(clock.now() + 30_000 + 15_000);
    expect(r.body.maxFrames).toBe(LIVENESS_LIMITS.maxFrames);
    const stored = await t.app.liveness.attempts.get(r.body.attemptId);
    expect(stored).toMatchObject({ sessionId: s.sessionId, nodeId: 'live', status: 'capturing' });
    expect(stored?.challenges).toEqual(r.body.challenges);
  });

  it('refuses a node that is not current, and a node of another type', async () => {
    const s = await t.open(PERMISSIONS_FIRST_FLOW);
    const notCurrent = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(notCurrent.status).toBe(400);
    expect(notCurrent.body.error).toMatchObject({
      type: 'validation_error',
      code: 'node_not_current',
    });
    const wrongType = await t.client(s.token, 'POST', '/nodes/perm/liveness/start', {});
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.code).toBe('outcome_not_allowed');
    expect(await t.app.liveness.attempts.attemptsOf(s.sessionId, 'live')).toEqual([]);
  });

  it('needs the client token', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/client/nodes/live/liveness/start',
      payload: {},
    });
    expect(r.statusCode).toBe(401);
    expect(r.json().error.code).toBe('client_token_missing');
  });

  it('a new start replaces the attempt in progress (not counted as an attempt); past the starts allowed, refused', async () => {
    const s = await t.open();
    const ids: string[] = [];
    for (let i = 0; i < LIVENESS_LIMITS.maxStartsPerNode; i++) {
      const r = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
      expect(r.status).toBe(200);
      // A replaced attempt was never judged: each new one is still the first.
      expect(r.body).toMatchObject({ attempt: 1, maxAttempts: 1 });
      ids.push(r.body.attemptId);
    }
    const statuses = (await t.app.liveness.attempts.attemptsOf(s.sessionId, 'live')).map(
      (a) => a.status,
    );
    expect(statuses).toEqual([
      ...Array<string>(LIVENESS_LIMITS.maxStartsPerNode - 1).fill('replaced'),
      'capturing',
    ]);
    const old = await t.client(s.token, 'POST', `/nodes/live/liveness/${ids[0]}/frames`, frame());
    expect(old.status).toBe(400);
    expect(old.body.error.code).toBe('attempt_finished');
    const extra = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe('liveness_attempts_exhausted');
  });
});

describe('POST …/frames', () => {
  it('stores the frame, stamps the server time and queues its analysis at once', async () => {
    const s = await started();
    const id = s.attempt.attemptId;
    clock.advance(1234);
    const before = await t.app.liveness.queue.pendingCount();
    const r = await t.client(s.token, 'POST', `/nodes/live/liveness/${id}/frames`, frame({ t: 0 }));
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ received: 1 });
    const r2 = await t.client(
      s.token,
      'POST',
      `/nodes/live/liveness/${id}/frames`,
      frame({ role: 'challenge', challengeIndex: 1, t: 800 }),
    );
    expect(r2.body).toEqual({ received: 2 });
    expect(await t.app.liveness.queue.pendingCount()).toBe(before + 2);
    const frames = await t.app.liveness.attempts.frames(id);
    expect(frames.map((f) => [f.seq, f.role, f.challengeIndex, f.t, f.analysis])).toEqual([
      [0, 'baseline', null, 0, null],
      [1, 'challenge', 1, 800, null],
    ]);
    expect(frames[0]!.receivedAt).toBe(clock.now());
    const stored = await t.app.ctx.media.read(frames[0]!.mediaId);
    expect(stored?.record).toMatchObject({
      kind: 'frame',
      contentType: 'image/jpeg',
      sessionId: s.sessionId,
    });
    expect(stored?.bytes.equals(Buffer.from(image, 'base64'))).toBe(true);
  });

  it('a frame sent again (its first request timed out on the page) is stored and counted once', async () => {
    const s = await started();
    const id = s.attempt.attemptId;
    const post = (body: unknown) =>
      t.client(s.token, 'POST', `/nodes/live/liveness/${id}/frames`, body);
    const before = await t.app.liveness.queue.pendingCount();
    const mediaBefore = (await t.app.ctx.media.list(s.sessionId)).length;
    expect((await post(frame({ t: 400 }))).body).toEqual({ received: 1 });
    const again = await post(frame({ t: 400 }));
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ received: 1 });
    expect((await post(frame({ role: 'between', t: 1200 }))).body).toEqual({ received: 2 });
    // The copy and its original in flight together: both stored before either is added.
    const both = await Promise.all([post(frame({ t: 2000 })), post(frame({ t: 2000 }))]);
    expect(both.map((r) => r.body)).toEqual([{ received: 3 }, { received: 3 }]);
    expect((await t.app.liveness.attempts.frames(id)).map((f) => f.t)).toEqual([400, 1200, 2000]);
    expect(await t.app.liveness.queue.pendingCount()).toBe(before + 3);
    expect(await t.app.ctx.media.list(s.sessionId)).toHaveLength(mediaBefore + 3);
  });

  it('refuses bad frames, each problem with its path, and stores nothing', async () => {
    const s = await started();
    const url = `/nodes/live/liveness/${s.attempt.attemptId}/frames`;
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString(
      'base64',
    );
    const cases: [Record<string, unknown>, string[]][] = [
      [{ image: png }, ['image']],
      [{ image: 'not base64!' }, ['image']],
      [{ role: 'challenge' }, ['challengeIndex']],
      [{ role: 'challenge', challengeIndex: 2 }, ['challengeIndex']],
      [{ role: 'selfie', t: -1 }, ['role', 't']],
      [{ extra: true }, ['extra']],
    ];
    for (const [over, paths] of cases) {
      const r = await t.client(s.token, 'POST', url, frame(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.error.type).toBe('validation_error');
      expect(r.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(paths);
    }
    expect(await t.app.liveness.attempts.frames(s.attempt.attemptId)).toEqual([]);
  });

  it('refuses an image over 500 KB and a body over 700 KB', async () => {
    const s = await started();
    const url = `/nodes/live/liveness/${s.attempt.attemptId}/frames`;
    const big = Buffer.alloc(LIVENESS_LIMITS.maxFrameBytes + 3, 7);
    big[0] = 0xff;
    big[1] = 0xd8;
    big[2] = 0xff;
    const tooBig = await t.client(s.token, 'POST', url, frame({ image: big.toString('base64') }));
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details[0].path).toBe('image');
    const huge = await t.client(s.token, 'POST', url, frame({ image: 'A'.repeat(800 * 1024) }));
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({ type: 'validation_error' });
    expect(huge.body.error.message).toContain('700 KB');
    expect(await t.app.liveness.attempts.frames(s.attempt.attemptId)).toEqual([]);
  });

  it(`takes at most ${LIVENESS_LIMITS.maxFrames} frames`, async () => {
    const s = await started();
    const url = `/nodes/live/liveness/${s.attempt.attemptId}/frames`;
    for (let i = 0; i < LIVENESS_LIMITS.maxFrames; i++) {
      const r = await t.client(s.token, 'POST', url, frame({ role: 'between', t: i * 100 }));
      expect(r.status).toBe(202);
    }
    const r = await t.client(s.token, 'POST', url, frame({ role: 'between', t: 9999 }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('too_many_frames');
    expect(await t.app.liveness.attempts.frames(s.attempt.attemptId)).toHaveLength(
      LIVENESS_LIMITS.maxFrames,
    );
  });

  it('refuses an unknown attempt, and another session’s attempt', async () => {
    const a = await started();
    const b = await started();
    const unknown = await t.client(a.token, 'POST', '/nodes/live/liveness/att_00/frames', frame());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ type: 'not_found_error', code: 'attempt_unknown' });
    const foreign = await t.client(
      a.token,
      'POST',
      `/nodes/live/liveness/${b.attempt.attemptId}/frames`,
      frame(),
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('attempt_unknown');
    const poll = await t.client(a.token, 'GET', `/nodes/live/liveness/${b.attempt.attemptId}`);
    expect(poll.status).toBe(404);
    expect(await t.app.liveness.attempts.frames(b.attempt.attemptId)).toEqual([]);
  });

  it('refuses frames after finish (attempt_finished) and a second finish', async () => {
    const s = await started();
    const base = `/nodes/live/liveness/${s.attempt.attemptId}`;
    expect((await t.client(s.token, 'POST', `${base}/frames`, frame())).status).toBe(202);
    const fin = await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' });
    expect(fin.status).toBe(202);
    expect(fin.body).toEqual({ status: 'analysing' });
    const late = await t.client(s.token, 'POST', `${base}/frames`, frame({ t: 100 }));
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('attempt_finished');
    const again = await t.client(s.token, 'POST', `${base}/finish`, {});
    expect(again.body.error.code).toBe('attempt_finished');
    expect((await t.client(s.token, 'GET', base)).body).toEqual({ status: 'analysing' });
    // While it is analysed no new attempt may start (the decision is on its way).
    const restart = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(restart.body.error.code).toBe('attempt_finished');
  });
});

describe('expiry (own app: the clock jumps and jobs are drained)', () => {
  let saved: LivenessApp;
  beforeAll(async () => {
    saved = t;
    t = await openLivenessApp({ clock, livenessWorker: 'manual' });
  });
  afterAll(async () => {
    await t.close();
    t = saved;
  });

  it('refuses frames after expiry; the attempt is then decided inconclusive (timeout)', async () => {
    const s = await started();
    const base = `/nodes/live/liveness/${s.attempt.attemptId}`;
    expect((await t.client(s.token, 'GET', base)).body).toEqual({ status: 'capturing' });
    clock.set(s.attempt.expiresAt);
    const late = await t.client(s.token, 'POST', `${base}/frames`, frame());
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('attempt_expired');
    expect(await t.app.liveness.attempts.frames(s.attempt.attemptId)).toEqual([]);
    expect((await t.client(s.token, 'GET', base)).body).toEqual({ status: 'analysing' });
    await t.app.liveness.drain();
    const polled = await t.client(s.token, 'GET', base);
    expect(polled.body.status).toBe('decided');
    expect(polled.body.position).toMatchObject({ status: 'complete', nodeId: null });
    expect(polled.body.position.path).toEqual([
      { nodeId: 'live', type: 'liveness_detection', outcome: 'inconclusive' },
    ]);
    const session = await t.store.getSessionById(s.sessionId);
    const report = session!.report.nodeReports.find((r) => r.nodeId === 'live');
    expect(report).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'timeout' });
    expect(report?.report).toMatchObject({
      attemptId: s.attempt.attemptId,
      ended: 'expired',
      frames: 0,
    });
    expect(session!.report.livenessDetected).toBe(false);
  });

  it('the sweep decides attempts never finished once they expire', async () => {
    const s = await started();
    clock.set(s.attempt.expiresAt - 1);
    expect(await t.app.liveness.expireDue()).toBe(0);
    clock.advance(1);
    expect(await t.app.liveness.expireDue()).toBeGreaterThanOrEqual(1);
    await t.app.liveness.drain();
    expect(await t.app.liveness.attempts.get(s.attempt.attemptId)).toMatchObject({
      status: 'decided',
      outcome: 'inconclusive',
      inconclusiveReason: 'timeout',
    });
  });
});

describe('finish { cameraUnavailable }', () => {
  it('decides inconclusive (cameraUnavailable) at once, without analysis or photo', async () => {
    const s = await started();
    const base = `/nodes/live/liveness/${s.attempt.attemptId}`;
    const r = await t.client(s.token, 'POST', `${base}/finish`, { cameraUnavailable: true });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('decided');
    expect(r.body.position).toMatchObject({ status: 'complete' });
    expect(r.body.position.path).toEqual([
      { nodeId: 'live', type: 'liveness_detection', outcome: 'inconclusive' },
    ]);
    const session = await t.store.getSessionById(s.sessionId);
    expect(session!.report.nodeReports.find((x) => x.nodeId === 'live')).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'cameraUnavailable',
    });
    expect(session!.report.screenshots ?? []).toEqual([]);
    const events = await t.store.listEvents({ sessionId: s.sessionId });
    expect(events.map((e) => e.type)).not.toContain('media.user_photo');
    expect((await t.client(s.token, 'GET', base)).body.status).toBe('decided');
  });
});

describe('a forged outcome', () => {
  it('POST /result livenessDetected is refused in live mode and changes nothing', async () => {
    const s = await started();
    const before = await t.store.getSessionById(s.sessionId);
    for (const outcome of ['livenessDetected', 'deepfakeDetected', 'noFace', 'inconclusive']) {
      const r = await t.client(s.token, 'POST', '/nodes/live/result', {
        outcome,
        report: { livenessDetected: true },
      });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('outcome_not_allowed');
    }
    const after = await t.store.getSessionById(s.sessionId);
    expect(after).toEqual(before);
    expect((await t.app.liveness.attempts.get(s.attempt.attemptId))?.status).toBe('capturing');
  });
});

describe('an analyzer that keeps failing', () => {
  let saved: LivenessApp;
  let calls = 0;
  beforeAll(async () => {
    saved = t;
    // Stands in for a broken model install: the FaceAnalyzer interface, failing every call.
    t = await openLivenessApp({
      clock,
      livenessWorker: 'manual',
      analyzer: {
        load: async () => {},
        analyze: async () => {
          calls++;
          throw new Error('model file unreadable');
        },
        close: async () => {},
      },
    });
  });
  afterAll(async () => {
    await t.close();
    t = saved;
  });

  it('retries the decision, then ends the node inconclusive instead of leaving the page waiting', async () => {
    const s = await started();
    const base = `/nodes/live/liveness/${s.attempt.attemptId}`;
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.client(s.token, 'POST', `${base}/frames`, frame({ t: i * 400 }))).status,
      ).toBe(202);
    }
    expect((await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' })).status).toBe(202);
    await t.app.liveness.drain();
    expect((await t.client(s.token, 'GET', base)).body.status).toBe('analysing');
    for (let i = 0; i < 3; i++) {
      clock.advance(5_000);
      await t.app.liveness.drain();
    }
    const polled = await t.client(s.token, 'GET', base);
    expect(polled.body.status).toBe('decided');
    const session = await t.store.getSessionById(s.sessionId);
    expect(session!.report.nodeReports.find((x) => x.nodeId === 'live')).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'poorQuality',
    });
    expect(calls).toBeGreaterThanOrEqual(3);
  });
});
