/**
 * What every `MediaStore` does, run against each: the folder store, and the S3 store on an
 * S3-compatible server started here (s3rver, on loopback).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from '../test/s3Server';
import { createFsMediaStore } from './fs-store';
import { MediaKeyError } from './keys';
import { createS3MediaStore } from './s3-store';
import type { MediaStore } from './types';

interface Subject {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A new, empty store. */
  open(): MediaStore;
  /** The keys of the objects the last opened store holds, sorted. */
  keys(): string[];
  close(): void;
}

function fsSubject(): Subject {
  let dir = '';
  return {
    name: 'folder',
    async setup() {},
    async teardown() {},
    open() {
      dir = mkdtempSync(join(tmpdir(), 'idv-media-contract-'));
      return createFsMediaStore(join(dir, 'media'));
    },
    keys() {
      const root = join(dir, 'media');
      if (!existsSync(root)) return [];
      // Dot-files are the store's own notes (content types), not objects.
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile() && !d.name.startsWith('.'))
        .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
        .sort();
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function s3Subject(): Subject {
  let server: S3TestServer | null = null;
  let store: ReturnType<typeof createS3MediaStore> | null = null;
  let n = 0;
  let bucket = '';
  const buckets = Array.from({ length: 12 }, (_, i) => `idv-media-${i}`);
  return {
    name: 'S3',
    async setup() {
      server = await startS3Server(buckets);
    },
    async teardown() {
      await server?.stop();
    },
    open() {
      if (!server) throw new Error('no server');
      bucket = buckets[n++] ?? '';
      if (!bucket) throw new Error('more tests than buckets: add buckets');
      store = createS3MediaStore({
        bucket,
        endpoint: server.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      });
      return store;
    },
    keys() {
      return server?.keys(bucket) ?? [];
    },
    close() {
      store?.close();
    },
  };
}

describe.each([fsSubject(), s3Subject()])('the $name media store', (subject) => {
  let store: MediaStore;
  beforeAll(() => subject.setup(), 30_000);
  afterAll(() => subject.teardown());
  beforeEach(() => {
    store = subject.open();
  });
  afterEach(() => subject.close());

  it('gives back the bytes and content type it was given', async () => {
    const bytes = randomBytes(5000);
    await store.put('sessions/sess_1/med_1.jpg', bytes, 'image/jpeg');
    await store.put('sessions/sess_1/med_2.mp4', Buffer.alloc(0), 'video/mp4');
    const got = await store.get('sessions/sess_1/med_1.jpg');
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.bytes.equals(bytes)).toBe(true);
    const empty = await store.get('sessions/sess_1/med_2.mp4');
    expect(empty?.bytes.length).toBe(0);
    expect(empty?.contentType).toBe('video/mp4');
    expect(subject.keys()).toEqual(['sessions/sess_1/med_1.jpg', 'sessions/sess_1/med_2.mp4']);
  });

  it('answers null for a key never written, or deleted', async () => {
    expect(await store.get('sessions/sess_1/nothing.jpg')).toBeNull();
    await store.put('sessions/sess_1/a.jpg', Buffer.from('a'), 'image/jpeg');
    await store.delete('sessions/sess_1/a.jpg');
    expect(await store.get('sessions/sess_1/a.jpg')).toBeNull();
  });

  it('replaces an object whole: concurrent readers see the old bytes or the new, never a mix or nothing', async () => {
    const key = 'sessions/sess_1/med_big.jpg';
    const a = Buffer.alloc(2 * 1024 * 1024, 0xaa);
    const b = Buffer.alloc(3 * 1024 * 1024, 0xbb);
    await store.put(key, a, 'image/jpeg');
    let writing = true;
    const seen = { a: 0, b: 0 };
    const reader = (async () => {
      while (writing) {
        const got = await store.get(key);
        if (!got) throw new Error('the object was missing while being replaced');
        if (got.bytes.equals(a)) seen.a++;
        else if (got.bytes.equals(b)) seen.b++;
        else throw new Error(`torn read: ${got.bytes.length} bytes`);
      }
    })();
    for (let i = 0; i < 8; i++) await store.put(key, i % 2 ? a : b, 'image/jpeg');
    writing = false;
    await reader;
    expect(seen.a + seen.b).toBeGreaterThan(0);
    // The last write (i = 7) was `a`.
    expect((await store.get(key))?.bytes.equals(a)).toBe(true);
    expect(subject.keys()).toEqual([key]);
  });

  it('deletes one object, keeps the others, and tolerates a second delete', async () => {
    await store.put('sessions/sess_1/a.jpg', Buffer.from('a'), 'image/jpeg');
    await store.put('sessions/sess_1/b.jpg', Buffer.from('b'), 'image/jpeg');
    await store.delete('sessions/sess_1/a.jpg');
    await store.delete('sessions/sess_1/a.jpg');
    await store.delete('sessions/sess_9/never.jpg');
    expect(subject.keys()).toEqual(['sessions/sess_1/b.jpg']);
    expect((await store.get('sessions/sess_1/b.jpg'))?.bytes.toString()).toBe('b');
  });

  it('refuses bad keys for every operation and stores nothing', async () => {
    for (const key of ['../escape.jpg', '/abs/path.jpg', 'a/../../b', 'sessions/.type', '']) {
      await expect(store.put(key, Buffer.from('x'), 'image/jpeg')).rejects.toThrow(MediaKeyError);
      await expect(store.get(key)).rejects.toThrow(MediaKeyError);
      await expect(store.delete(key)).rejects.toThrow(MediaKeyError);
    }
    expect(subject.keys()).toEqual([]);
  });
});
