/**
 * One suite, both attempt stores: SQLite's (the store's file, its one writer lock) and
 * PostgreSQL's (shared by instances, row and advisory locks). "Another connection" stands for
 * another process or instance; the jobs a write asks for must be in the same database's queue,
 * committed with it or not at all.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_REASONS } from '../../core/liveness';
import { pgFeatures, sqliteFeatures, type FeatureConnection } from '../test/featureStores';
import type { AttemptStore, FrameRecord, NewAttempt } from './attempt-types';
import type { AttemptEntry } from './attempt-verdict';

/** Past 2^31 ms, as every time is. */
const T0 = 1_750_000_000_000;
const LIMITS = { maxStarts: 5, maxAttempts: 3 };
const LEASE = 60_000;

let n = 0;
const attempt = (over: Partial<NewAttempt> = {}): NewAttempt => ({
  id: `att_${String(++n).padStart(6, '0')}`,
  sessionId: 'sess_1',
  nodeId: 'live',
  accountId: 'acct_1',
  mode: 'test',
  challenges: ['turnLeft', 'lookUp'],
  timeoutSeconds: 30,
  maxFrames: 3,
  issuedAt: T0 + n,
  expiresAt: T0 + n + 35_000,
  ...over,
});

const frame = (attemptId: string, i = 0): Omit<FrameRecord, 'seq' | 'analysis'> => ({
  attemptId,
  role: i === 0 ? 'baseline' : 'challenge',
  challengeIndex: i === 0 ? null : i - 1,
  // Seconds since the start, with a fraction: a float on both sides.
  t: 0.125 + i,
  receivedAt: T0 + 100 + i,
  mediaId: `med_${i}`,
});

const frameJob = (attemptId: string) => (seq: number) => ({
  kind: 'liveness.frame',
  payload: { attemptId, seq },
});
const decideJob = (attemptId: string) => ({ kind: 'liveness.decide', payload: { attemptId } });

describe.each([sqliteFeatures(), pgFeatures()])('the $name attempt store', (subject) => {
  let store: AttemptStore;
  const connections: FeatureConnection[] = [];
  /** The attempts on another connection (another process, another instance). */
  const another = async () => {
    const c = await subject.open();
    connections.push(c);
    return c.attempts;
  };
  beforeAll(() => subject.setup(), 60_000);
  afterAll(() => subject.teardown());
  beforeEach(async () => {
    await subject.fresh();
    store = await another();
  });
  afterEach(async () => {
    for (const c of connections.splice(0)) await c.close();
  });

  /** Every job queued so far, claimed (and so taken off the queue's due list). */
  async function claimAll() {
    const out: { kind: string; payload: unknown }[] = [];
    for (;;) {
      const job = await store.jobs.claim(T0 + 1_000_000, LEASE);
      if (!job) return out;
      out.push({ kind: job.kind, payload: job.payload });
      await store.jobs.complete(job);
    }
  }

  it('keeps an attempt as it was started, for another connection too', async () => {
    const a = attempt();
    expect(await store.start(a, LIMITS)).toEqual({ ok: true, attempt: 1 });
    const expected = {
      ...a,
      status: 'capturing',
      frameCount: 0,
      ended: null,
      cameraUnavailable: false,
      finishedAt: null,
      decisionMedia: null,
      outcome: null,
      inconclusiveReason: null,
      position: null,
      decidedAt: null,
      summary: null,
      retry: null,
    };
    expect(await store.get(a.id)).toEqual(expected);
    expect(await (await another()).get(a.id)).toEqual(expected);
    expect(await store.get('att_unknown')).toBeNull();
  });

  it('replaces the attempt still capturing, and counts only judged ones', async () => {
    const first = attempt();
    await store.start(first, LIMITS);
    const second = attempt();
    expect(await store.start(second, LIMITS)).toEqual({ ok: true, attempt: 1 });
    expect(await store.get(first.id)).toMatchObject({
      status: 'replaced',
      finishedAt: second.issuedAt,
    });
    await store.finish(second.id, { ended: 'done', cameraUnavailable: false }, T0 + 10, {
      kind: 'liveness.decide',
      payload: {},
    });
    // Being analysed: no new start until it is decided.
    expect(await store.start(attempt(), LIMITS)).toEqual({ ok: false, reason: 'finished' });
    await store.decided(second.id, decision(), T0 + 20);
    const third = attempt();
    expect(await store.start(third, LIMITS)).toEqual({ ok: true, attempt: 2 });
    const other = attempt({ nodeId: 'other' });
    expect(await store.start(other, LIMITS)).toEqual({ ok: true, attempt: 1 });
    expect((await store.attemptsOf('sess_1', 'live')).map((x) => [x.id, x.status])).toEqual([
      [first.id, 'replaced'],
      [second.id, 'decided'],
      [third.id, 'capturing'],
    ]);
  });

  it('refuses a start once the starts or the judged attempts are used up', async () => {
    for (let i = 0; i < LIMITS.maxStarts; i++) await store.start(attempt(), LIMITS);
    expect(await store.start(attempt(), LIMITS)).toEqual({ ok: false, reason: 'exhausted' });
    const node = { nodeId: 'two' };
    for (let i = 0; i < 2; i++) {
      const a = attempt(node);
      await store.start(a, { ...LIMITS, maxAttempts: 2 });
      await store.finish(a.id, { ended: 'done', cameraUnavailable: false }, T0, decideJob(a.id));
      await store.decided(a.id, decision(), T0);
    }
    expect(await store.start(attempt(node), { ...LIMITS, maxAttempts: 2 })).toEqual({
      ok: false,
      reason: 'exhausted',
    });
    expect(await store.attemptsOf('sess_1', 'two')).toHaveLength(2);
  });

  it('numbers frames, queues a job with each in its transaction, and refuses past the cap', async () => {
    const a = attempt();
    await store.start(a, LIMITS);
    for (let i = 0; i < a.maxFrames; i++) {
      expect(await store.addFrame(frame(a.id, i), T0 + 100, frameJob(a.id))).toEqual({
        ok: true,
        received: i + 1,
      });
    }
    expect(await store.addFrame(frame(a.id, 9), T0 + 100, frameJob(a.id))).toEqual({
      ok: false,
      reason: 'too_many_frames',
    });
    expect(await store.get(a.id)).toMatchObject({ frameCount: a.maxFrames });
    const frames = await store.frames(a.id);
    expect(frames).toEqual([0, 1, 2].map((i) => ({ ...frame(a.id, i), seq: i, analysis: null })));
    expect(await store.frame(a.id, 1)).toEqual(frames[1]);
    expect(await store.frame(a.id, 7)).toBeNull();
    expect(await store.jobs.pendingCount()).toBe(3);
    expect(await claimAll()).toEqual(
      [0, 1, 2].map((seq) => ({ kind: 'liveness.frame', payload: { attemptId: a.id, seq } })),
    );
  });

  it('adds a frame sent twice (the same page time) once, and queues one job for it', async () => {
    const a = attempt();
    await store.start(a, LIMITS);
    const add = (i: number, mediaId: string) =>
      store.addFrame({ ...frame(a.id, i), mediaId }, T0 + 100, frameJob(a.id));
    expect(await add(0, 'med_first')).toEqual({ ok: true, received: 1 });
    expect(await add(0, 'med_copy')).toEqual({ ok: true, received: 1, duplicate: true });
    expect(await add(1, 'med_next')).toEqual({ ok: true, received: 2 });
    expect((await store.frames(a.id)).map((f) => f.mediaId)).toEqual(['med_first', 'med_next']);
    expect(await store.jobs.pendingCount()).toBe(2);
  });

  it('refuses frames to unknown, expired, finished and replaced attempts, queueing nothing', async () => {
    const a = attempt();
    await store.start(a, LIMITS);
    const add = (id: string, now = T0 + 100) => store.addFrame(frame(id), now, frameJob(id));
    expect(await add('att_unknown')).toEqual({ ok: false, reason: 'unknown' });
    expect(await add(a.id, a.expiresAt)).toEqual({ ok: false, reason: 'expired' });
    const b = attempt();
    await store.start(b, LIMITS);
    expect(await add(a.id)).toEqual({ ok: false, reason: 'finished' });
    await store.finish(b.id, { ended: 'done', cameraUnavailable: false }, T0 + 50, decideJob(b.id));
    expect(await add(b.id)).toEqual({ ok: false, reason: 'finished' });
    expect(await store.frames(a.id)).toEqual([]);
    expect(await claimAll()).toEqual([decideJob(b.id)]);
  });

  it('finishes once, queueing the decision with it; an expired attempt only as expired', async () => {
    const a = attempt();
    await store.start(a, LIMITS);
    const how = { ended: 'timeout' as const, cameraUnavailable: true };
    expect(await store.finish(a.id, how, T0 + 50, decideJob(a.id))).toEqual({ ok: true });
    expect(await store.get(a.id)).toMatchObject({
      status: 'analysing',
      ended: 'timeout',
      cameraUnavailable: true,
      finishedAt: T0 + 50,
    });
    expect(await store.finish(a.id, how, T0 + 60, decideJob(a.id))).toEqual({
      ok: false,
      reason: 'finished',
    });
    expect(await store.finish('att_unknown', how, T0, decideJob('x'))).toEqual({
      ok: false,
      reason: 'unknown',
    });

    const late = attempt({ nodeId: 'late' });
    await store.start(late, LIMITS);
    const done = { ended: 'done' as const, cameraUnavailable: false };
    expect(await store.finish(late.id, done, late.expiresAt, decideJob(late.id))).toEqual({
      ok: false,
      reason: 'expired',
    });
    const expired = { ended: 'expired' as const, cameraUnavailable: false };
    expect(await store.finish(late.id, expired, late.expiresAt, decideJob(late.id))).toEqual({
      ok: true,
    });
    expect(await store.get(late.id)).toMatchObject({ status: 'analysing', ended: 'expired' });
    expect(await claimAll()).toEqual([decideJob(a.id), decideJob(late.id)]);
  });

  it('lists the attempts still capturing whose time ran out, soonest first, up to a limit', async () => {
    const soon = attempt({ expiresAt: T0 + 1_000 });
    const sooner = attempt({ nodeId: 'b', expiresAt: T0 + 500 });
    const later = attempt({ nodeId: 'c', expiresAt: T0 + 5_000 });
    const done = attempt({ nodeId: 'd', expiresAt: T0 + 100 });
    for (const a of [soon, sooner, later, done]) await store.start(a, LIMITS);
    await store.finish(done.id, { ended: 'done', cameraUnavailable: false }, T0, decideJob('d'));
    const ids = async (now: number, limit: number) =>
      (await store.listExpired(now, limit)).map((a) => a.id);
    expect(await ids(T0 + 1_000, 10)).toEqual([sooner.id, soon.id]);
    expect(await ids(T0 + 1_000, 1)).toEqual([sooner.id]);
    expect(await ids(T0 + 499, 10)).toEqual([]);
  });

  it('keeps analyses, the first decision media and the first decision as written', async () => {
    const a = attempt();
    await store.start(a, LIMITS);
    await store.addFrame(frame(a.id, 0), T0 + 100, frameJob(a.id));
    await store.addFrame(frame(a.id, 1), T0 + 100, frameJob(a.id));
    const analysis = { width: 640, height: 480, brightness: 117.5, faces: [], ms: 12.25 };
    await store.setAnalysis(a.id, 0, analysis);
    await store.setAnalysis(a.id, 1, { error: 'unreadable' });
    expect((await store.frames(a.id)).map((f) => f.analysis)).toEqual([
      analysis,
      { error: 'unreadable' },
    ]);
    const media = { screenshots: ['med_1', 'med_2'], userPhoto: 'med_3', eventId: 'evt_1' };
    await store.setDecisionMedia(a.id, media);
    await store.setDecisionMedia(a.id, { screenshots: [], userPhoto: null, eventId: null });
    await store.finish(
      a.id,
      { ended: 'done', cameraUnavailable: false },
      T0 + 200,
      decideJob(a.id),
    );
    const first = decision();
    await store.decided(a.id, first, T0 + 300);
    await store.decided(a.id, decision('livenessDetected'), T0 + 400);
    expect(await store.get(a.id)).toMatchObject({
      status: 'decided',
      decisionMedia: media,
      outcome: first.outcome,
      inconclusiveReason: first.inconclusiveReason,
      position: first.position,
      summary: first.summary,
      retry: first.retry,
      decidedAt: T0 + 300,
    });
  });

  it('from two connections at once: one capturing attempt per node, frames numbered once', async () => {
    const other = await another();
    // Nodes with no attempt yet: nothing to lock but the node itself.
    const nodes = Array.from({ length: 8 }, (_, i) => `race_${i}`);
    const starts = nodes.flatMap((nodeId) => [0, 1, 2].map(() => attempt({ nodeId })));
    const results = await Promise.all(
      starts.map((a, i) => (i % 2 ? other : store).start(a, { maxStarts: 10, maxAttempts: 3 })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    for (const nodeId of nodes) {
      const statuses = (await store.attemptsOf('sess_1', nodeId)).map((a) => a.status).sort();
      expect(statuses).toEqual(['capturing', 'replaced', 'replaced']);
    }

    const a = attempt({ nodeId: 'frames', maxFrames: 8 });
    await store.start(a, LIMITS);
    const added = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? other : store).addFrame(frame(a.id, i), T0 + 100, frameJob(a.id)),
      ),
    );
    expect(added.filter((r) => r.ok)).toHaveLength(8);
    expect(added.filter((r) => !r.ok)).toEqual([
      { ok: false, reason: 'too_many_frames' },
      { ok: false, reason: 'too_many_frames' },
    ]);
    expect((await store.frames(a.id)).map((f) => f.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await store.jobs.pendingCount()).toBe(8);
  });

  it('from two connections at once: a start and a finish of the same node, one after the other', async () => {
    const other = await another();
    const nodes = Array.from({ length: 8 }, (_, i) => `race_${i}`);
    const first = nodes.map((nodeId) => attempt({ nodeId }));
    for (const a of first) await store.start(a, LIMITS);
    const how = { ended: 'done' as const, cameraUnavailable: false };
    await Promise.all(
      first.flatMap((a) => [
        other.finish(a.id, how, T0 + 100, decideJob(a.id)),
        store.start(attempt({ nodeId: a.nodeId }), LIMITS),
      ]),
    );
    for (const nodeId of nodes) {
      const statuses = (await store.attemptsOf('sess_1', nodeId)).map((a) => a.status);
      // The finish first (the start refused), or the start first (the finish refused).
      expect([['analysing'], ['replaced', 'capturing']]).toContainEqual(statuses);
    }
  });
});

function decision(outcome = 'livenessNotDetected') {
  return {
    outcome,
    inconclusiveReason: null,
    position: {
      nodeId: 'live',
      nodeType: 'liveness_detection' as const,
      status: 'active' as const,
      path: [],
    },
    summary: {
      attempt: 1,
      attemptId: 'att_x',
      ended: 'done',
      outcome,
      reason: null,
    } as unknown as AttemptEntry,
    retry: { reason: RETRY_REASONS[0], attemptsLeft: 2 },
  };
}
