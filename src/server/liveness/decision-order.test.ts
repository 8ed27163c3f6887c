/**
 * A finished attempt's decision goes before the frames of captures begun since (service.ts,
 * `decideJob`): through the routes (`app.inject`, a real SQLite file), the worker left manual so
 * the queue's order can be read with `claim`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { DECIDE_JOB, FRAME_JOB } from './service';
import { openLivenessApp, smallJpeg, type LivenessApp } from './test-support';

describe('the order of the liveness jobs', () => {
  let t: LivenessApp;
  const clock = manualClock(Date.UTC(2026, 10, 27, 15));

  beforeAll(async () => {
    t = await openLivenessApp({ clock, livenessWorker: 'manual' });
  });
  afterAll(() => t?.close());

  const begin = async () => {
    const s = await t.open();
    const start = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(start.status, start.raw).toBe(200);
    return { token: s.token, base: `/nodes/live/liveness/${start.body.attemptId as string}` };
  };
  const frame = async (a: { token: string; base: string }, ms: number) => {
    const r = await t.client(a.token, 'POST', `${a.base}/frames`, {
      role: 'baseline',
      t: ms,
      image: smallJpeg(),
    });
    expect(r.status, r.raw).toBe(202);
  };

  it('takes the decision of a finished attempt before the frames of a capture begun later', async () => {
    const first = await begin();
    clock.advance(1000);
    const second = await begin();
    clock.advance(1000);
    await frame(first, 0);
    clock.advance(500);
    await frame(second, 0);
    clock.advance(500);
    const fin = await t.client(first.token, 'POST', `${first.base}/finish`, { ended: 'done' });
    expect(fin.status, fin.raw).toBe(202);

    const claimed: string[] = [];
    for (;;) {
      const job = await t.app.liveness.queue.claim(clock.now(), 60_000, [FRAME_JOB, DECIDE_JOB]);
      if (!job) break;
      claimed.push(`${job.kind} ${(job.payload as { attemptId: string }).attemptId}`);
      await t.app.liveness.queue.complete(job);
    }
    const id = (a: { base: string }) => a.base.split('/').at(-1)!;
    // The first attempt's own frame is still queued before its decision (the decision analyses
    // it itself if it comes first); the second capture's frame waits.
    expect(claimed).toEqual([
      `${DECIDE_JOB} ${id(first)}`,
      `${FRAME_JOB} ${id(first)}`,
      `${FRAME_JOB} ${id(second)}`,
    ]);
  });
});
