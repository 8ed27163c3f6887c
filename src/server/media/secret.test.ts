import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { folderSecrets } from '../platform-secrets/folder';
import { PG_PLATFORM_SECRET_MIGRATIONS, pgPlatformSecrets } from '../platform-secrets/pg';
import { connectPg, type Pg } from '../store/pg/client';
import { runPgMigrations } from '../store/pg/migrations';
import { openSqliteStore } from '../store/sqlite';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
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

describe('the media signing secret in a data folder', () => {
  it('is 32 random bytes in a 0600 file, made once and read afterwards', async () => {
    const dataDir = join(dir, 'data');
    const first = await loadOrCreateMediaSecret(folderSecrets(dataDir));
    expect(first.length).toBe(32);
    const path = join(dataDir, MEDIA_SECRET_FILE);
    expect(readFileSync(path).equals(first)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((await loadOrCreateMediaSecret(folderSecrets(dataDir))).equals(first)).toBe(true);
    // Another data folder gets another secret.
    const other = await loadOrCreateMediaSecret(folderSecrets(join(dir, 'other')));
    expect(other.equals(first)).toBe(false);
  });

  it('refuses a file that is not a key rather than signing with it', async () => {
    writeFileSync(join(dir, MEDIA_SECRET_FILE), 'short');
    await expect(loadOrCreateMediaSecret(folderSecrets(dir))).rejects.toThrow(
      `${join(dir, MEDIA_SECRET_FILE)} holds 5 bytes, not 32`,
    );
  });

  it('keeps URLs working across a restart of the whole service', async () => {
    const dbPath = join(dir, 'idv.sqlite');
    const clock = manualClock(T0);
    const boot = async () => {
      const store = openSqliteStore({ path: dbPath, backgroundCheckpoints: false });
      const media = createMediaService({
        db: store.db,
        store: createFsMediaStore(join(dir, 'media')),
        secret: await loadOrCreateMediaSecret(folderSecrets(dir)),
        publicUrl: 'http://127.0.0.1:1',
        clock,
      });
      const app = Fastify();
      mediaRoutes(app, media, { clock });
      return { store, media, app };
    };
    const before = await boot();
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
    const after = await boot();
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

describe('the media signing secret on PostgreSQL', () => {
  let cluster: PgCluster;
  const pools: Pg[] = [];
  /** A pool of its own, as another instance has. */
  const instance = (url: string) => {
    const pg = connectPg(url, { max: 2 });
    pools.push(pg);
    return pg;
  };
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pg) => pg.end({ timeout: 1 })));
  });

  it('is one key for instances starting together, and the same after', async () => {
    const url = await cluster.newDatabase();
    await runPgMigrations(instance(url), PG_PLATFORM_SECRET_MIGRATIONS);
    const instances = Array.from({ length: 6 }, () => pgPlatformSecrets(instance(url)));
    const keys = await Promise.all(instances.map((s) => loadOrCreateMediaSecret(s)));
    expect(keys[0]?.length).toBe(32);
    for (const key of keys) expect(key.equals(keys[0] as Buffer)).toBe(true);
    const later = await loadOrCreateMediaSecret(pgPlatformSecrets(instance(url)));
    expect(later.equals(keys[0] as Buffer)).toBe(true);

    // Another database, another key.
    const otherUrl = await cluster.newDatabase();
    await runPgMigrations(instance(otherUrl), PG_PLATFORM_SECRET_MIGRATIONS);
    const other = await loadOrCreateMediaSecret(pgPlatformSecrets(instance(otherUrl)));
    expect(other.equals(keys[0] as Buffer)).toBe(false);
  });

  it('refuses a row that is not a key, naming it', async () => {
    const url = await cluster.newDatabase();
    const pg = instance(url);
    await runPgMigrations(pg, PG_PLATFORM_SECRET_MIGRATIONS);
    await pg`INSERT INTO platform_secrets (name, value, created_at)
      VALUES ('media-signing', ${Buffer.from('short')}, 0)`;
    await expect(loadOrCreateMediaSecret(pgPlatformSecrets(pg))).rejects.toThrow(
      'the PostgreSQL row platform_secrets "media-signing" holds 5 bytes, not 32',
    );
  });
});
