import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { openSqliteStore } from '../store/sqlite';
import { createFsMediaStore } from './fs-store';
import { mediaRoutes } from './routes';
import { loadOrCreateMediaSecret, MEDIA_SECRET_FILE } from './secret';
import { createMediaService } from './service';
import { jpegBytes, T0 } from './test-support';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-media-secret-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the media signing secret', () => {
  it('is 32 random bytes in a 0600 file, made once and read afterwards', () => {
    const dataDir = join(dir, 'data');
    const first = loadOrCreateMediaSecret(dataDir);
    expect(first.length).toBe(32);
    const path = join(dataDir, MEDIA_SECRET_FILE);
    expect(readFileSync(path).equals(first)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateMediaSecret(dataDir).equals(first)).toBe(true);
    // Another data folder gets another secret.
    expect(loadOrCreateMediaSecret(join(dir, 'other')).equals(first)).toBe(false);
  });

  it('refuses a file that is not a key rather than signing with it', () => {
    writeFileSync(join(dir, MEDIA_SECRET_FILE), 'short');
    expect(() => loadOrCreateMediaSecret(dir)).toThrow(/holds 5 bytes, not 32/);
  });

  it('keeps URLs working across a restart of the whole service', async () => {
    const dbPath = join(dir, 'idv.sqlite');
    const clock = manualClock(T0);
    const boot = () => {
      const store = openSqliteStore({ path: dbPath, backgroundCheckpoints: false });
      const media = createMediaService({
        db: store.db,
        store: createFsMediaStore(join(dir, 'media')),
        secret: loadOrCreateMediaSecret(dir),
        publicUrl: 'http://127.0.0.1:1',
        clock,
      });
      const app = Fastify();
      mediaRoutes(app, media, { clock });
      return { store, media, app };
    };
    const before = boot();
    const bytes = jpegBytes();
    const rec = await before.media.save({
      sessionId: 'sess_1',
      accountId: 'acct_1',
      mode: 'live',
      kind: 'user_photo',
      contentType: 'image/jpeg',
      bytes,
    });
    const url = new URL(before.media.signedUrl(rec.id).url);
    await before.app.close();
    await before.store.close();

    clock.advance(60_000);
    const after = boot();
    try {
      const res = await after.app.inject({ method: 'GET', url: url.pathname + url.search });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    } finally {
      await after.app.close();
      await after.store.close();
    }
  });
});
