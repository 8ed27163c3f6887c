/**
 * A video analysis that fails on every try ends `failed` (the SDK's `videoAIAnalysisStatus`), and
 * `analysis.video` still rings once.
 */
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { openLivenessApp, type LivenessApp } from '../liveness/test-support';

/** The models crash on every frame (not an undecodable image: that is a frame's own failure). */
const crashing: FaceAnalyzer = {
  load: async () => {},
  analyze: async () => {
    throw new Error('the model crashed');
  },
  close: async () => {},
};

const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'done', permissionsDenied: 'done' },
  },
  { id: 'done', type: 'end' },
];

const frame = Buffer.from(
  jpeg.encode({ width: 8, height: 8, data: Buffer.alloc(8 * 8 * 4, 128) }, 80).data,
).toString('base64');

describe('a video analysis that keeps failing', () => {
  const clock = manualClock(Date.UTC(2026, 10, 27, 9));
  let t: LivenessApp;
  beforeAll(async () => {
    t = await openLivenessApp({
      clock,
      analyzer: crashing,
      livenessWorker: 'manual',
      videoSettleMs: 0,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads failed after its last try, and rings analysis.video once', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/sessions',
      headers: { authorization: `Bearer ${t.keys.live}` },
      payload: { flow: FLOW, videoAIAnalysisEnabled: true },
    });
    const { session, clientSecret } = created.json();
    const ex = await t.app.inject({
      method: 'POST',
      url: '/client/exchange',
      payload: { clientSecret: clientSecret.secret },
    });
    const token = ex.json().token as string;
    expect((await t.client(token, 'POST', '/video/frames', { t: 0, image: frame })).status).toBe(
      200,
    );
    await t.client(token, 'POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    const status = async () => {
      const r = await t.app.inject({
        method: 'GET',
        url: `/sessions/${session.id}`,
        headers: { authorization: `Bearer ${t.keys.live}` },
      });
      return r.json().session.report.videoAIAnalysisStatus as string;
    };
    await t.app.analyses.drain();
    expect(await status()).toBe('pending');
    // Each failed try waits its retry delay; the third is the last.
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await t.app.analyses.drain();
    }
    expect(await status()).toBe('failed');
    const types = (await t.store.listEvents({ sessionId: session.id })).map((e) => e.type);
    expect(types.filter((x) => x === 'analysis.video')).toHaveLength(1);
  });
});
