/**
 * Attempts of a liveness node through the routes (`app.inject`, a real SQLite file), decided by
 * the real analyzer on fixture frames: a failure another try may fix leaves the node current with
 * its reason, a pass on a later attempt decides it, the last failed attempt decides it with its
 * outcome, and the node report lists every attempt. Skipped without `npm run fixtures`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../core/liveness';
import { createHumanAnalyzer } from '../face-analysis/human-analyzer';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import {
  fixtureFrameJpeg,
  fixtureJpeg,
  missingFixtures,
  openLivenessApp,
  RETRY_FLOW,
  type LivenessApp,
} from './test-support';

const FILES = ['astronaut.png', 'coffee.png', 'head-loop.y4m'];
const missing = missingFixtures(FILES);
if (missing.length > 0) {
  console.warn(`liveness attempts.test: skipped, fixtures missing (${missing.join(', ')})`);
}

/**
 * Frames of head-loop.y4m (15 fps, docs/liveness-fixtures.md): frontal at 0.4 s, and each
 * movement at its peak (1.8, 4.1, 6.4, 8.7 s).
 */
const LOOP_FRAMES: Record<'frontal' | Challenge, number> = {
  frontal: 6,
  turnLeft: 27,
  turnRight: 62,
  lookUp: 96,
  comeCloser: 130,
};

type Frame = { role: 'baseline' | 'challenge' | 'between'; challengeIndex?: number; image: string };

describe.skipIf(missing.length > 0)('attempts of a liveness node', () => {
  let analyzer: FaceAnalyzer;
  let t: LivenessApp;
  const img: Record<string, string> = {};

  beforeAll(async () => {
    analyzer = createHumanAnalyzer();
    await analyzer.load();
    img['astronaut'] = fixtureJpeg('astronaut.png');
    img['coffee'] = fixtureJpeg('coffee.png');
    for (const [k, n] of Object.entries(LOOP_FRAMES)) {
      img[k] = fixtureFrameJpeg('head-loop.y4m', n);
    }
    t = await openLivenessApp({ analyzer, livenessWorker: 'manual' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await analyzer?.close();
  });

  /** Starts an attempt, uploads the frames the test makes for its challenges, finishes, decides. */
  async function attempt(
    token: string,
    frames: (challenges: Challenge[]) => Frame[],
    ended: 'done' | 'cameraLost' = 'done',
  ) {
    const start = await t.client(token, 'POST', '/nodes/live/liveness/start', {});
    expect(start.status, start.raw).toBe(200);
    const base = `/nodes/live/liveness/${start.body.attemptId}`;
    let ms = 0;
    for (const f of frames(start.body.challenges)) {
      const r = await t.client(token, 'POST', `${base}/frames`, { ...f, t: (ms += 500) });
      expect(r.status, r.raw).toBe(202);
    }
    const fin = await t.client(token, 'POST', `${base}/finish`, { ended });
    expect(fin.status, fin.raw).toBe(202);
    await t.app.liveness.drain();
    const status = await t.client(token, 'GET', base);
    expect(status.body.status).toBe('decided');
    return { start: start.body, status: status.body };
  }

  const still = (image: string) => (challenges: Challenge[]) => [
    { role: 'baseline' as const, image },
    ...challenges.flatMap((_, i) => [
      { role: 'between' as const, image },
      { role: 'challenge' as const, challengeIndex: i, image },
    ]),
  ];
  const following = (challenges: Challenge[]) => [
    { role: 'baseline' as const, image: img['frontal']! },
    ...challenges.map((c, i) => ({
      role: 'challenge' as const,
      challengeIndex: i,
      image: img[c]!,
    })),
  ];

  const liveReport = async (sessionId: string) =>
    (await t.store.getSessionById(sessionId))?.report.nodeReports.find((r) => r.nodeId === 'live');

  it('a head that does not follow is told why and may try again; its second attempt passes', async () => {
    const s = await t.open(RETRY_FLOW);
    const first = await attempt(s.token, still(img['astronaut']!));
    expect(first.start).toMatchObject({ attempt: 1, maxAttempts: 3 });
    expect(first.status.retry).toEqual({
      reason: 'challengeFailed',
      attemptsLeft: 2,
      challenge: first.start.challenges[0],
    });
    // The node is still current: nothing was written to the session.
    expect(first.status.position).toMatchObject({ nodeId: 'live', status: 'active' });
    const mid = await t.store.getSessionById(s.sessionId);
    expect(mid?.report.nodeReports).toEqual([]);
    expect(mid?.report.screenshots ?? []).toEqual([]);

    const second = await attempt(s.token, following);
    expect(second.start).toMatchObject({ attempt: 2, maxAttempts: 3 });
    expect(second.status.retry).toBeUndefined();
    expect(second.status.position).toMatchObject({ status: 'complete' });
    const report = await liveReport(s.sessionId);
    expect(report?.outcome).toBe('livenessDetected');
    const attempts = report?.report?.['attempts'] as Record<string, unknown>[];
    expect(attempts.map((a) => [a['attempt'], a['outcome'], a['reason'], a['retried']])).toEqual([
      [1, 'inconclusive', 'challengeFailed', true],
      [2, 'livenessDetected', null, false],
    ]);
    expect(attempts[0]).toMatchObject({
      attemptId: first.start.attemptId,
      inconclusiveReason: 'challengeFailed',
      frames: 1 + 2 * 2,
    });
    expect(attempts[1]?.['scores']).toMatchObject({ realMedian: expect.any(Number) });
    expect((attempts[1]?.['challenges'] as { met: boolean }[]).every((c) => c.met)).toBe(true);
    expect(report?.report?.['attemptId']).toBe(second.start.attemptId);
  }, 120_000);

  it('when the attempts run out the last one decides the node, and every attempt is listed', async () => {
    const s = await t.open(RETRY_FLOW);
    const reasons = [];
    for (let i = 0; i < 3; i++) {
      const a = await attempt(s.token, still(img['coffee']!));
      reasons.push(a.status.retry ?? a.status.position.status);
    }
    expect(reasons).toEqual([
      { reason: 'noFace', attemptsLeft: 2 },
      { reason: 'noFace', attemptsLeft: 1 },
      'complete',
    ]);
    const report = await liveReport(s.sessionId);
    expect(report?.outcome).toBe('noFace');
    const attempts = report?.report?.['attempts'] as Record<string, unknown>[];
    expect(attempts.map((a) => [a['attempt'], a['reason'], a['retried']])).toEqual([
      [1, 'noFace', true],
      [2, 'noFace', true],
      [3, 'noFace', false],
    ]);
    const again = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(again.body.error.code).toBe('session_finished');
  }, 120_000);

  it('a camera lost during the capture is a failed attempt with its own reason', async () => {
    const s = await t.open(RETRY_FLOW);
    const lost = await attempt(
      s.token,
      (challenges) => still(img['astronaut']!)(challenges).slice(0, 2),
      'cameraLost',
    );
    expect(lost.status.retry).toEqual({ reason: 'cameraLost', attemptsLeft: 2 });
    const next = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(next.body).toMatchObject({ attempt: 2 });
  }, 120_000);
});
