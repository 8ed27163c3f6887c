/**
 * Real parts for the media tests: the SQLite store on a temporary file, a media folder beside it,
 * a service over both with a clock the test moves.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock } from '../clock';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';
import { createFsMediaStore } from './fs-store';
import { createMediaService } from './service';
import type { MediaService, MediaStore } from './types';

export const PUBLIC_URL = 'http://127.0.0.1:3999';
/** A time far from 0, so that an expiry of `now + ttl` is not mistaken for a small number. */
export const T0 = 1_750_000_000_000;

export interface MediaFixture {
  dir: string;
  db: SqliteSessionStore;
  files: MediaStore & { readonly dir: string };
  media: MediaService;
  clock: ReturnType<typeof manualClock>;
  secret: Buffer;
  close(): Promise<void>;
}

/**
 * A media service on a new temporary store and folder.
 *
 * @example
 * const f = openMediaFixture(); await f.media.save({ … }); await f.close();
 */
export function openMediaFixture(options: { store?: MediaStore } = {}): MediaFixture {
  const dir = mkdtempSync(join(tmpdir(), 'idv-media-'));
  const db = openSqliteStore({ path: join(dir, 'idv.sqlite'), backgroundCheckpoints: false });
  const files = createFsMediaStore(join(dir, 'media'));
  const clock = manualClock(T0);
  const secret = randomBytes(32);
  const media = createMediaService({
    db: db.db,
    store: options.store ?? files,
    secret,
    publicUrl: PUBLIC_URL,
    clock,
  });
  return {
    dir,
    db,
    files,
    media,
    clock,
    secret,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small JPEG-looking payload (SOI marker, random body) that differs on every call. */
export function jpegBytes(size = 2048): Buffer {
  const b = randomBytes(size);
  b[0] = 0xff;
  b[1] = 0xd8;
  b[2] = 0xff;
  return b;
}

/** The `expires` and `sig` of a signed URL, and its path. */
export function partsOf(url: string): { path: string; id: string; expires: string; sig: string } {
  const u = new URL(url);
  return {
    path: u.pathname,
    id: decodeURIComponent(u.pathname.replace(/^\/media\//, '')),
    expires: u.searchParams.get('expires') ?? '',
    sig: u.searchParams.get('sig') ?? '',
  };
}
