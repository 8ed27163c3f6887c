/**
 * One suite, both analyses stores and both account settings: SQLite's (one file) and
 * PostgreSQL's (shared by instances). "Another connection" stands for another process or
 * instance.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  endSession,
  newSession,
  pgFeatures,
  sqliteFeatures,
  type FeatureConnection,
} from '../test/featureStores';
import type { QueuedJob } from './store';

const job = (kind: string, runAfter = 10): QueuedJob => ({ kind, payload: { kind }, runAfter });

describe.each([sqliteFeatures(), pgFeatures()])('the $name analyses store', (subject) => {
  let c: FeatureConnection;
  const others: FeatureConnection[] = [];
  const another = async () => {
    const o = await subject.open();
    others.push(o);
    return o;
  };

  beforeAll(() => subject.setup(), 60_000);
  afterAll(() => subject.teardown());
  beforeEach(async () => {
    await subject.fresh();
    c = await subject.open();
  });
  afterEach(async () => {
    await c.close();
    for (const o of others.splice(0)) await o.close();
  });

  it('keeps per-account settings, read afresh by every connection', async () => {
    const other = await another();
    expect(await c.settings.deepfakeEnabled('acc_1')).toBe(false);
    expect(await c.settings.all('acc_1')).toEqual({});
    await c.settings.setDeepfake('acc_1', true, 5);
    expect(await other.settings.deepfakeEnabled('acc_1')).toBe(true);
    expect(await other.settings.deepfakeEnabled('acc_2')).toBe(false);
    await other.settings.setDeepfake('acc_1', false, 6);
    expect(await c.settings.deepfakeEnabled('acc_1')).toBe(false);
    expect(await c.settings.all('acc_1')).toEqual({ deepfake_detection: 'off' });
  });

  it('notes a session when it ends, in the status change, once', async () => {
    const a = await newSession(c.store, 1);
    const b = await newSession(c.store, 2);
    const started = await c.store.updateSession(a, { ...a, status: 'inProgress' }, 2000);
    expect(await c.analyses.ended(10)).toEqual([]);
    await endSession(c.store, started!, 'complete', 3000);
    await endSession(c.store, b, 'incomplete', 4000);
    const ended = await c.analyses.ended(10);
    expect(ended.sort((x, y) => x.endedAt - y.endedAt)).toEqual([
      { sessionId: a.id, accountId: a.accountId, status: 'complete', endedAt: 3000 },
      { sessionId: b.id, accountId: b.accountId, status: 'incomplete', endedAt: 4000 },
    ]);
    expect(await c.analyses.ended(1)).toHaveLength(1);
    // A later change of status (the test panel's, say) notes nothing more.
    const cur = (await c.store.getSessionById(a.id))!;
    await c.store.updateSession(cur, { ...cur, status: 'incomplete' }, 5000);
    expect((await c.analyses.ended(10)).find((e) => e.sessionId === a.id)?.endedAt).toBe(3000);
  });

  it('queues the jobs of an ended session once whichever connection scans first', async () => {
    const other = await another();
    const s = await endSession(c.store, await newSession(c.store, 1), 'complete', 3000);
    const scans = await Promise.all([
      c.analyses.queueJobs(s.id, [job('analyses.session'), job('analyses.video', 50)]),
      other.analyses.queueJobs(s.id, [job('analyses.session'), job('analyses.video', 50)]),
    ]);
    expect(scans.filter(Boolean)).toHaveLength(1);
    expect(await c.analyses.ended(10)).toEqual([]);
    expect(await c.analyses.queue.pendingCount()).toBe(2);
    const first = await other.analyses.queue.claim(20, 1000);
    expect(first).toMatchObject({
      kind: 'analyses.session',
      payload: { kind: 'analyses.session' },
    });
    expect(await c.analyses.queue.claim(20, 1000)).toBeNull();
    expect(await c.analyses.queue.claim(60, 1000)).toMatchObject({ kind: 'analyses.video' });
    expect(await other.analyses.queue.complete(first!)).toBe(true);
    expect(await c.analyses.queue.pendingCount()).toBe(1);
  });

  it('skips a session with nothing to analyse', async () => {
    const s = await endSession(c.store, await newSession(c.store, 1), 'incomplete', 3000);
    await c.analyses.skip(s.id);
    expect(await c.analyses.ended(10)).toEqual([]);
    expect(await c.analyses.queueJobs(s.id, [job('analyses.session')])).toBe(false);
    expect(await c.analyses.queue.pendingCount()).toBe(0);
  });

  it('numbers video frames in order across connections, up to the limit, each with its job', async () => {
    const other = await another();
    const s = await newSession(c.store, 1);
    const add = (conn: FeatureConnection, i: number) =>
      conn.analyses.addFrame(
        { sessionId: s.id, t: i / 2, mediaId: `med_${i}`, receivedAt: 100 + i },
        5,
        (seq) => job(`frame.${seq}`, 100 + i),
      );
    const added = await Promise.all([0, 1, 2, 3, 4, 5, 6].map((i) => add(i % 2 ? other : c, i)));
    expect(added.filter((n) => n === null)).toHaveLength(2);
    expect(added.filter((n) => n !== null).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await c.analyses.frameCount(s.id)).toBe(5);
    const frames = await other.analyses.frames(s.id);
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(frames.map((f) => f.mediaId)).size).toBe(5);
    expect(frames.every((f) => f.analysis === null)).toBe(true);
    expect(await c.analyses.queue.pendingCount()).toBe(5);
    const kinds: string[] = [];
    for (let j = await c.analyses.queue.claim(1000, 1000); j;) {
      kinds.push(j.kind);
      await c.analyses.queue.complete(j);
      j = await c.analyses.queue.claim(1000, 1000);
    }
    expect(kinds.sort()).toEqual(['frame.0', 'frame.1', 'frame.2', 'frame.3', 'frame.4']);

    await c.analyses.setFrameAnalysis(s.id, 3, '{"faces":[]}');
    expect(await other.analyses.frame(s.id, 3)).toEqual({
      seq: 3,
      mediaId: frames[3]!.mediaId,
      analysis: '{"faces":[]}',
    });
    expect(await other.analyses.frame(s.id, 9)).toBeNull();
    expect(await c.analyses.frameCount('sess_none')).toBe(0);
  });

  it('closes the video of an ended session', async () => {
    const s = await endSession(c.store, await newSession(c.store, 1), 'complete', 3000);
    expect(await c.analyses.videoClosed(s.id)).toBe(false);
    await c.analyses.closeVideo(s.id);
    expect(await (await another()).analyses.videoClosed(s.id)).toBe(true);
    expect(await c.analyses.videoClosed('sess_none')).toBe(false);
  });

  it("reads the session's captures, stills and video among its media", async () => {
    const s = await newSession(c.store, 1);
    const t = await newSession(c.store, 2);
    expect(await c.analyses.hasCaptures(s.id)).toBe(false);
    await c.addMedia({ id: 'med_doc', sessionId: s.id, kind: 'document_photo', createdAt: 1 });
    expect(await c.analyses.hasCaptures(s.id)).toBe(false);
    await c.addMedia({ id: 'med_b', sessionId: s.id, kind: 'screenshot', createdAt: 3 });
    await c.addMedia({ id: 'med_a', sessionId: s.id, kind: 'user_photo', createdAt: 2 });
    await c.addMedia({ id: 'med_f', sessionId: t.id, kind: 'frame', createdAt: 2 });
    expect(await c.analyses.hasCaptures(s.id)).toBe(true);
    expect(await c.analyses.hasCaptures(t.id)).toBe(true);
    // Frames whose media went at their attempt's decision still count.
    const u = await newSession(c.store, 3);
    await c.attempts.start(
      {
        id: 'att_u',
        sessionId: u.id,
        nodeId: 'live',
        accountId: u.accountId,
        mode: u.mode,
        challenges: [],
        timeoutSeconds: 30,
        maxFrames: 10,
        issuedAt: 1,
        expiresAt: 60_001,
      },
      { maxStarts: 10, maxAttempts: 3 },
    );
    expect(await c.analyses.hasCaptures(u.id)).toBe(false);
    const frame = { attemptId: 'att_u', role: 'baseline' as const, challengeIndex: null, t: 0 };
    await c.attempts.addFrame({ ...frame, receivedAt: 2, mediaId: 'med_gone' }, 2, () => ({
      kind: 'test.none',
      payload: {},
    }));
    expect(await c.analyses.hasCaptures(u.id)).toBe(true);
    expect(await c.analyses.stills(s.id)).toEqual(['med_a', 'med_b']);
    // Two of one millisecond: in the order written, whatever their (random) ids say.
    await c.addMedia({ id: 'med_z', sessionId: s.id, kind: 'screenshot', createdAt: 9 });
    await c.addMedia({ id: 'med_y', sessionId: s.id, kind: 'screenshot', createdAt: 9 });
    expect(await c.analyses.stills(s.id)).toEqual(['med_a', 'med_b', 'med_z', 'med_y']);
    expect(await c.analyses.stills(t.id)).toEqual([]);
    expect(await c.analyses.hasVideo(s.id)).toBe(false);
    await c.addMedia({ id: 'med_v', sessionId: s.id, kind: 'user_video', createdAt: 4 });
    expect(await c.analyses.hasVideo(s.id)).toBe(true);
  });

  it('wakes its watcher when a session ends', async () => {
    let woken = 0;
    let wake: () => void = () => {};
    const stop = await c.analyses.watchEnded(() => {
      woken++;
      wake();
    });
    try {
      const s = await newSession(c.store, 1);
      const rang = new Promise<void>((resolve) => (wake = resolve));
      await endSession(c.store, s, 'complete', 3000);
      await rang;
      expect(woken).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });
});
