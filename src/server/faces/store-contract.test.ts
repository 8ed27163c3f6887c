/**
 * One suite, both face stores: SQLite's (one file) and PostgreSQL's (the face index shared by
 * instances: recognition searches users that any instance enrolled). "Another connection" stands
 * for another process or instance.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  endSession,
  newSession,
  pgFeatures,
  sqliteFeatures,
  type FeatureConnection,
} from '../test/featureStores';

describe.each([sqliteFeatures(), pgFeatures()])('the $name face store', (subject) => {
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

  it('caches the embedding of an image, or that it has no face', async () => {
    const other = await another();
    expect(await c.faces.mediaEmbedding('med_1')).toBeUndefined();
    await c.faces.setMediaEmbedding('med_1', [0.25, -1.5, 3], 10);
    await c.faces.setMediaEmbedding('med_2', null, 10);
    expect(Array.from((await other.faces.mediaEmbedding('med_1'))!)).toEqual([0.25, -1.5, 3]);
    expect(await other.faces.mediaEmbedding('med_2')).toBeNull();
    // Analysed again (a face found after all): the new one replaces it.
    await other.faces.setMediaEmbedding('med_2', [1], 11);
    expect(Array.from((await c.faces.mediaEmbedding('med_2'))!)).toEqual([1]);
  });

  it('keeps known users by account and mode, shared by every connection', async () => {
    const other = await another();
    const row = (sessionId: string, accountId: string, mode: 'test' | 'live') => ({
      sessionId,
      accountId,
      mode,
      clientReferenceId: `ref-${sessionId}`,
    });
    await c.faces.addKnown(row('sess_1', 'acc_1', 'live'), 'med_1', [0.5, 0.25], 10);
    await c.faces.addKnown(row('sess_2', 'acc_1', 'test'), 'med_2', [1, 0], 10);
    await c.faces.addKnown(row('sess_3', 'acc_2', 'live'), 'med_3', [0, 1], 10);
    const known = await other.faces.known('acc_1', 'live');
    expect(known.map((k) => ({ ...k, embedding: Array.from(k.embedding) }))).toEqual([
      {
        sessionId: 'sess_1',
        clientReferenceId: 'ref-sess_1',
        mediaId: 'med_1',
        embedding: [0.5, 0.25],
      },
    ]);
    expect(await other.faces.known('acc_2', 'test')).toEqual([]);
    // Enrolled again (a retried job): one row, the latest.
    await other.faces.addKnown(row('sess_1', 'acc_1', 'live'), 'med_9', [0.75, 0], 11);
    const again = await c.faces.known('acc_1', 'live');
    expect(again.map((k) => [k.mediaId, Array.from(k.embedding)])).toEqual([['med_9', [0.75, 0]]]);
  });

  it('notes sessions that complete verified with a clientReferenceId, once, oldest first', async () => {
    const other = await another();
    const verified = await newSession(c.store, 1, { clientReferenceId: 'user-1' });
    const early = await newSession(c.store, 2, { clientReferenceId: 'user-2' });
    const unverified = await newSession(c.store, 3, { clientReferenceId: 'user-3' });
    const anonymous = await newSession(c.store, 4);
    const failed = await newSession(c.store, 5, { clientReferenceId: 'user-5' });
    await endSession(c.store, verified, 'complete', 5000, { isVerified: true });
    await endSession(other.store, early, 'complete', 4000, { isVerified: true });
    await endSession(c.store, unverified, 'complete', 3000);
    await endSession(c.store, anonymous, 'complete', 3000, { isVerified: true });
    await endSession(c.store, failed, 'incomplete', 3000, { isVerified: true });
    expect(await other.faces.pending(10)).toEqual([early.id, verified.id]);
    expect(await c.faces.pending(1)).toEqual([early.id]);
    await other.faces.donePending(early.id);
    expect(await c.faces.pending(10)).toEqual([verified.id]);
    await c.faces.donePending(verified.id);
    // A later write of a complete session (no change of status) notes nothing more.
    const cur = (await c.store.getSessionById(verified.id))!;
    await c.store.updateSession(cur, { ...cur, lastActivityAt: 6000 }, 6000);
    expect(await c.faces.pending(10)).toEqual([]);
  });

  it('forgets the embeddings of deleted media and an erased session, on every connection', async () => {
    const other = await another();
    const s = await newSession(c.store, 1, { clientReferenceId: 'user-1' });
    await endSession(c.store, s, 'complete', 5000, { isVerified: true });
    const row = { sessionId: s.id, accountId: s.accountId, mode: s.mode, clientReferenceId: 'u' };
    await c.faces.addKnown(row, 'med_1', [1, 0], 10);
    await c.faces.setMediaEmbedding('med_1', [1, 0], 10);
    await c.faces.setMediaEmbedding('med_2', [0, 1], 10);
    await other.faces.forgetMedia(['med_1', 'med_missing']);
    await other.faces.forgetMedia([]);
    expect(await c.faces.mediaEmbedding('med_1')).toBeUndefined();
    expect(Array.from((await c.faces.mediaEmbedding('med_2'))!)).toEqual([0, 1]);
    expect(await c.faces.pending(10)).toEqual([s.id]);
    await other.faces.forgetSession(s.id);
    expect(await c.faces.known(s.accountId, s.mode)).toEqual([]);
    expect(await c.faces.pending(10)).toEqual([]);
  });

  it("finds the session's latest image of a kind and its video frames, latest first", async () => {
    const s = await newSession(c.store, 1);
    expect(await c.faces.latestMedia(s.id, 'user_photo')).toBeNull();
    await c.addMedia({ id: 'med_a', sessionId: s.id, kind: 'user_photo', createdAt: 1 });
    await c.addMedia({ id: 'med_c', sessionId: s.id, kind: 'user_photo', createdAt: 3 });
    await c.addMedia({ id: 'med_b', sessionId: s.id, kind: 'document_photo', createdAt: 5 });
    expect(await c.faces.latestMedia(s.id, 'user_photo')).toBe('med_c');
    expect(await c.faces.latestMedia(s.id, 'document_photo')).toBe('med_b');
    expect(await c.faces.videoFrames(s.id)).toEqual([]);
    for (const i of [0, 1, 2]) {
      await c.analyses.addFrame(
        { sessionId: s.id, t: i, mediaId: `med_f${i}`, receivedAt: 10 + i },
        10,
        () => ({ kind: 'frame', payload: {}, runAfter: 10 }),
      );
    }
    await c.analyses.setFrameAnalysis(s.id, 1, '{"faces":[]}');
    expect(await (await another()).faces.videoFrames(s.id)).toEqual([
      { mediaId: 'med_f2', analysis: null },
      { mediaId: 'med_f1', analysis: '{"faces":[]}' },
      { mediaId: 'med_f0', analysis: null },
    ]);
  });
});
