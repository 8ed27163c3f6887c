import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_MIGRATIONS } from '../features';
import { openSqliteStore } from '../store/sqlite';
import { createFsMediaStore } from './fs-store';
import { createMediaService } from './service';
import {
  jpegBytes,
  openMediaFixture,
  partsOf,
  PUBLIC_URL,
  T0,
  type MediaFixture,
} from './test-support';
import { MEDIA_URL_TTL_MS, type MediaStore } from './types';

let f: MediaFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const photo = (sessionId = 'sess_1', bytes = jpegBytes()) => ({
  sessionId,
  accountId: 'acct_1',
  mode: 'live' as const,
  kind: 'user_photo' as const,
  contentType: 'image/jpeg',
  bytes,
});

describe('the media service', () => {
  it('saves bytes and a record, and reads both back', async () => {
    f = openMediaFixture();
    const bytes = jpegBytes(3000);
    const rec = await f.media.save(photo('sess_1', bytes));
    expect(rec).toEqual({
      id: expect.stringMatching(/^med_[0-9a-f]{24}$/),
      sessionId: 'sess_1',
      accountId: 'acct_1',
      mode: 'live',
      kind: 'user_photo',
      contentType: 'image/jpeg',
      size: 3000,
      createdAt: T0,
    });
    expect(await f.media.get(rec.id)).toEqual(rec);
    const read = await f.media.read(rec.id);
    expect(read?.record).toEqual(rec);
    expect(read?.bytes.equals(bytes)).toBe(true);
    expect(existsSync(join(f.files.dir, 'sessions/sess_1', `${rec.id}.jpg`))).toBe(true);
    const row = f.db.db.prepare('SELECT storage_key FROM media WHERE id = ?').get(rec.id);
    expect(row).toEqual({ storage_key: `sessions/sess_1/${rec.id}.jpg` });
  });

  it('answers null for unknown ids and for records whose bytes are gone', async () => {
    f = openMediaFixture();
    expect(await f.media.get('med_000000000000000000000000')).toBeNull();
    expect(await f.media.read('med_000000000000000000000000')).toBeNull();
    const rec = await f.media.save(photo());
    rmSync(join(f.files.dir, 'sessions/sess_1', `${rec.id}.jpg`));
    expect(await f.media.get(rec.id)).not.toBeNull();
    expect(await f.media.read(rec.id)).toBeNull();
  });

  it('signs URLs for 15 minutes and refuses them from then on', async () => {
    f = openMediaFixture();
    const rec = await f.media.save(photo());
    const signed = f.media.signedUrl(rec.id);
    expect(signed.expires).toBe(T0 + MEDIA_URL_TTL_MS);
    expect(
      signed.url.startsWith(`${PUBLIC_URL}/media/${rec.id}?expires=${signed.expires}&sig=`),
    ).toBe(true);
    const p = partsOf(signed.url);
    expect(f.media.verify(rec.id, p.expires, p.sig)).toBe('ok');
    f.clock.advance(MEDIA_URL_TTL_MS - 1);
    expect(f.media.verify(rec.id, p.expires, p.sig)).toBe('ok');
    f.clock.advance(1);
    expect(f.media.verify(rec.id, p.expires, p.sig)).toBe('expired');
    // A URL made now lives another 15 minutes.
    const again = partsOf(f.media.signedUrl(rec.id).url);
    expect(f.media.verify(rec.id, again.expires, again.sig)).toBe('ok');
  });

  it('refuses a URL signed for another id or with another secret', async () => {
    f = openMediaFixture();
    const a = await f.media.save(photo());
    const b = await f.media.save(photo());
    const p = partsOf(f.media.signedUrl(a.id).url);
    expect(f.media.verify(b.id, p.expires, p.sig)).toBe('invalid');
    const other = createMediaService({
      db: f.db.db,
      store: f.files,
      secret: Buffer.alloc(32, 1),
      publicUrl: PUBLIC_URL,
      clock: f.clock,
    });
    expect(other.verify(a.id, p.expires, p.sig)).toBe('invalid');
  });

  it('writes no record when the bytes could not be stored', async () => {
    const failing: MediaStore = {
      put: async () => {
        throw new Error('disk full');
      },
      get: async () => null,
      delete: async () => {},
    };
    f = openMediaFixture({ store: failing });
    await expect(f.media.save(photo())).rejects.toThrow('disk full');
    expect(f.db.db.prepare('SELECT COUNT(*) AS n FROM media').get()).toEqual({ n: 0 });
  });

  it('removes the bytes again when the record cannot be written', async () => {
    f = openMediaFixture();
    // A session id that makes a valid key but breaks the record: the mode is checked by SQLite.
    await expect(f.media.save({ ...photo(), mode: 'prod' as 'live' })).rejects.toThrow(/CHECK/);
    expect(existsSync(join(f.files.dir, 'sessions'))).toBe(false);
  });

  it('refuses a session id that cannot be a key, before writing anything', async () => {
    f = openMediaFixture();
    await expect(f.media.save(photo('../../etc'))).rejects.toThrow(/invalid media key/);
    expect(f.db.db.prepare('SELECT COUNT(*) AS n FROM media').get()).toEqual({ n: 0 });
  });

  it('deletes the media of one session only, records and bytes', async () => {
    f = openMediaFixture();
    const mine = [
      await f.media.save(photo('sess_1')),
      await f.media.save({ ...photo('sess_1'), kind: 'frame' }),
    ];
    const theirs = await f.media.save(photo('sess_2'));
    expect(await f.media.deleteForSession('sess_1')).toBe(2);
    for (const r of mine) {
      expect(await f.media.get(r.id)).toBeNull();
      expect(existsSync(join(f.files.dir, 'sessions/sess_1', `${r.id}.jpg`))).toBe(false);
    }
    expect(existsSync(join(f.files.dir, 'sessions/sess_1'))).toBe(false);
    expect((await f.media.read(theirs.id))?.record.id).toBe(theirs.id);
    expect(await f.media.deleteForSession('sess_1')).toBe(0);
  });

  it('applies its table to a store opened without it, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-media-mig-'));
    const path = join(dir, 'idv.sqlite');
    // The lifecycle's migration builds on the media table: it goes too.
    const core = SERVER_MIGRATIONS.filter(
      (m) => !m.id.startsWith('media_') && !m.id.startsWith('lifecycle_'),
    );
    let store = openSqliteStore({ path, migrations: core, backgroundCheckpoints: false });
    try {
      expect(
        store.db.prepare("SELECT name FROM sqlite_master WHERE name = 'media'").get(),
      ).toBeUndefined();
      const files = createFsMediaStore(join(dir, 'media'));
      const options = { store: files, secret: Buffer.alloc(32, 3), publicUrl: PUBLIC_URL };
      const rec = await createMediaService({ db: store.db, ...options }).save(photo());
      await store.close();
      // Reopened (as after a restart), with every feature's migration this time.
      store = openSqliteStore({
        path,
        migrations: SERVER_MIGRATIONS,
        backgroundCheckpoints: false,
      });
      const again = createMediaService({ db: store.db, ...options });
      expect((await again.read(rec.id))?.record).toEqual(rec);
      const applied = store.db
        .prepare("SELECT COUNT(*) AS n FROM migrations WHERE id = 'media_0001_init'")
        .get();
      expect(applied).toEqual({ n: 1 });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an empty secret', () => {
    f = openMediaFixture();
    expect(() =>
      createMediaService({ db: f!.db.db, store: f!.files, secret: '', publicUrl: PUBLIC_URL }),
    ).toThrow(/secret is empty/);
  });
});
