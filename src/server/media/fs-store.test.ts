import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsMediaStore, MediaKeyError } from './fs-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-media-fs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every file under a folder, hidden ones included, relative to it. */
function listAll(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
    .sort();
}

describe('the folder media store', () => {
  it('keeps the bytes as a plain file at the key, with their content type', async () => {
    const store = createFsMediaStore(join(dir, 'media'));
    const bytes = randomBytes(5000);
    await store.put('sessions/sess_1/med_1.jpg', bytes, 'image/jpeg');
    expect(readFileSync(join(dir, 'media/sessions/sess_1/med_1.jpg')).equals(bytes)).toBe(true);
    const got = await store.get('sessions/sess_1/med_1.jpg');
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.bytes.equals(bytes)).toBe(true);
    expect(listAll(join(dir, 'media'))).toEqual([
      'sessions/sess_1/.med_1.jpg.type',
      'sessions/sess_1/med_1.jpg',
    ]);
  });

  it('answers null for a key never written', async () => {
    const store = createFsMediaStore(join(dir, 'media'));
    expect(await store.get('sessions/sess_1/nothing.jpg')).toBeNull();
    await store.put('a.bin', Buffer.from('x'), 'application/octet-stream');
    // A path through a file, not a folder.
    expect(await store.get('a.bin/b')).toBeNull();
  });

  it('replaces an object whole: concurrent readers see the old bytes or the new, never a mix', async () => {
    const store = createFsMediaStore(join(dir, 'media'));
    const key = 'sessions/sess_1/med_big.jpg';
    // Large enough that a plain write would be seen half-done by a reader.
    const a = Buffer.alloc(4 * 1024 * 1024, 0xaa);
    const b = Buffer.alloc(3 * 1024 * 1024, 0xbb);
    await store.put(key, a, 'image/jpeg');
    let writing = true;
    const seen = { a: 0, b: 0 };
    const reader = (async () => {
      while (writing) {
        const got = await store.get(key);
        expect(got).not.toBeNull();
        if (got?.bytes.equals(a)) seen.a++;
        else if (got?.bytes.equals(b)) seen.b++;
        else throw new Error(`torn read: ${got?.bytes.length} bytes`);
      }
    })();
    for (let i = 0; i < 12; i++) await store.put(key, i % 2 ? a : b, 'image/jpeg');
    writing = false;
    await reader;
    expect(seen.a + seen.b).toBeGreaterThan(0);
    // No temporary file is left behind.
    expect(listAll(join(dir, 'media'))).toEqual([
      'sessions/sess_1/.med_big.jpg.type',
      'sessions/sess_1/med_big.jpg',
    ]);
  });

  it('leaves nothing behind when a write fails', async () => {
    const store = createFsMediaStore(join(dir, 'media'));
    // The target is an existing folder: the final rename fails.
    await store.put('sessions/sess_1/x/inner.jpg', Buffer.from('in'), 'image/jpeg');
    await expect(
      store.put('sessions/sess_1/x', Buffer.from('over'), 'image/jpeg'),
    ).rejects.toThrow();
    const files = listAll(join(dir, 'media'));
    expect(files.filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect((await store.get('sessions/sess_1/x/inner.jpg'))?.bytes.toString()).toBe('in');
  });

  it.each(['../escape.jpg', '/abs/path.jpg', 'a/../../b', 'sessions/.type', ''])(
    'refuses the key %j for every operation and writes nothing',
    async (key) => {
      const store = createFsMediaStore(join(dir, 'media'));
      await expect(store.put(key, Buffer.from('x'), 'image/jpeg')).rejects.toThrow(MediaKeyError);
      await expect(store.get(key)).rejects.toThrow(MediaKeyError);
      await expect(store.delete(key)).rejects.toThrow(MediaKeyError);
      expect(listAll(dir)).toEqual([]);
    },
  );

  it('does not read a file outside its folder through a refused key', async () => {
    writeFileSync(join(dir, 'outside.txt'), 'secret');
    const store = createFsMediaStore(join(dir, 'media'));
    await expect(store.get('../outside.txt')).rejects.toThrow(/invalid media key/);
  });

  it('deletes an object, its type note and the folders it emptied, and tolerates a second delete', async () => {
    const store = createFsMediaStore(join(dir, 'media'));
    await store.put('sessions/sess_1/a.jpg', Buffer.from('a'), 'image/jpeg');
    await store.put('sessions/sess_1/b.jpg', Buffer.from('b'), 'image/jpeg');
    await store.delete('sessions/sess_1/a.jpg');
    expect(await store.get('sessions/sess_1/a.jpg')).toBeNull();
    expect(listAll(join(dir, 'media'))).toEqual([
      'sessions/sess_1/.b.jpg.type',
      'sessions/sess_1/b.jpg',
    ]);
    await store.delete('sessions/sess_1/b.jpg');
    await store.delete('sessions/sess_1/b.jpg');
    expect(existsSync(join(dir, 'media/sessions'))).toBe(false);
    expect(existsSync(join(dir, 'media'))).toBe(true);
  });
});
