/**
 * One suite, both media record stores: SQLite's (the store's file) and PostgreSQL's (shared by
 * instances), and the media service over each. "Another connection" stands for another process
 * or instance.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { pgFeatures, sqliteFeatures, type FeatureConnection } from '../test/featureStores';
import { createFsMediaStore } from './fs-store';
import type { MediaRecordStore, StoredMedia } from './records';
import { createMediaService } from './service';
import { jpegBytes, PUBLIC_URL, T0 } from './test-support';
import type { MediaKind } from './types';

let n = 0;
const media = (over: Partial<StoredMedia> = {}): StoredMedia => {
  const id = over.id ?? `med_${String(++n).padStart(24, '0')}`;
  const sessionId = over.sessionId ?? 'sess_1';
  return {
    id,
    sessionId,
    accountId: 'acct_1',
    mode: 'live',
    kind: 'user_photo',
    contentType: 'image/jpeg',
    size: 3_000_000_000,
    // Past 2^31 ms, as every time is.
    createdAt: T0 + n,
    storageKey: `sessions/${sessionId}/${id}.jpg`,
    ...over,
  };
};

describe.each([sqliteFeatures(), pgFeatures()])('the $name media records', (subject) => {
  let records: MediaRecordStore;
  const connections: FeatureConnection[] = [];
  /** The records on another connection (another process, another instance). */
  const another = async () => {
    const c = await subject.open();
    connections.push(c);
    return c.media;
  };
  beforeAll(() => subject.setup(), 60_000);
  afterAll(() => subject.teardown());
  beforeEach(async () => {
    await subject.fresh();
    records = await another();
  });
  afterEach(async () => {
    for (const c of connections.splice(0)) await c.close();
  });

  it('gives back what it was given, to another connection too, and null for unknown ids', async () => {
    const m = media({ mode: 'test', kind: 'document_photo', contentType: 'image/png' });
    await records.insert(m);
    expect(await records.get(m.id)).toEqual(m);
    expect(await (await another()).get(m.id)).toEqual(m);
    expect(await records.get('med_unknown')).toBeNull();
  });

  it('refuses a second record with the same id, keeping the first', async () => {
    const m = media();
    await records.insert(m);
    await expect(Promise.resolve().then(() => records.insert({ ...m, size: 1 }))).rejects.toThrow();
    expect((await records.get(m.id))?.size).toBe(m.size);
  });

  it("lists a session's records oldest first (ties in the order written), of some kinds or all", async () => {
    const kinds: MediaKind[] = ['frame', 'screenshot', 'user_photo', 'user_video'];
    const made = kinds.map((kind, i) => media({ kind, createdAt: T0 + 10 - i }));
    // Same millisecond: the order written, whatever the ids (random ones) say.
    const second = media({ id: 'med_a', createdAt: T0 });
    const first = media({ id: 'med_b', createdAt: T0 });
    for (const m of [...made, first, second, media({ sessionId: 'sess_2' })]) {
      await records.insert(m);
    }
    const all = await records.ofSession('sess_1');
    expect(all.map((m) => m.id)).toEqual([
      'med_b',
      'med_a',
      ...[...made].reverse().map((m) => m.id),
    ]);
    const stills = await records.ofSession('sess_1', ['screenshot', 'user_video']);
    expect(stills.map((m) => m.kind)).toEqual(['user_video', 'screenshot']);
    expect(await records.ofSession('sess_1', [])).toEqual([]);
    expect(await records.ofSession('sess_none')).toEqual([]);
  });

  it("removes a session's records in one go and returns them, leaving other sessions'", async () => {
    const mine = [media(), media({ kind: 'frame' })];
    const other = media({ sessionId: 'sess_2' });
    for (const m of [...mine, other]) await records.insert(m);
    const gone = await records.deleteSession('sess_1');
    expect(gone.map((m) => m.id).sort()).toEqual(mine.map((m) => m.id).sort());
    expect(gone.find((m) => m.id === mine[0]!.id)).toEqual(mine[0]);
    expect(await records.ofSession('sess_1')).toEqual([]);
    expect(await records.get(other.id)).toEqual(other);
    expect(await records.deleteSession('sess_1')).toEqual([]);
  });

  it('serves a media service: saved, listed, read from another instance, deleted with its bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-media-contract-'));
    try {
      const files = createFsMediaStore(dir);
      const options = { store: files, secret: Buffer.alloc(32, 5), publicUrl: PUBLIC_URL };
      const clock = manualClock(T0);
      const one = createMediaService({ ...options, records, clock });
      const two = createMediaService({ ...options, records: await another(), clock });
      const photo = { sessionId: 'sess_1', accountId: 'acct_1', mode: 'live' as const };
      const bytes = jpegBytes();
      const rec = await one.save({
        ...photo,
        kind: 'user_photo',
        contentType: 'image/jpeg',
        bytes,
      });
      clock.advance(1);
      const frame = await two.save({
        ...photo,
        kind: 'frame',
        contentType: 'image/jpeg',
        bytes: jpegBytes(),
      });
      expect((await two.read(rec.id))?.bytes.equals(bytes)).toBe(true);
      expect(await two.list('sess_1')).toEqual([rec, frame]);
      expect(await one.list('sess_1', ['frame'])).toEqual([frame]);
      expect(await two.deleteForSession('sess_1')).toBe(2);
      expect(await one.get(rec.id)).toBeNull();
      expect(await files.get(`sessions/sess_1/${rec.id}.jpg`)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
