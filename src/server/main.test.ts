import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli/main';
import { configFromEnv, startServer } from './main';
import { DEFAULT_SESSION_TIMEOUTS } from './sessions/timeouts';
import { S3RVER_CREDENTIALS, startS3Server } from './test/s3Server';

describe('configFromEnv', () => {
  it('reads the session timeouts, 30 min idle and 24 h unopened when unset', () => {
    expect(configFromEnv({}).sessionTimeouts).toEqual({
      idleMs: 30 * 60 * 1000,
      unopenedMs: 24 * 60 * 60 * 1000,
    });
    expect(DEFAULT_SESSION_TIMEOUTS).toEqual(configFromEnv({}).sessionTimeouts);
    const short = configFromEnv({
      SESSION_IDLE_TIMEOUT_MS: '5000',
      SESSION_UNOPENED_TIMEOUT_MS: '20000',
    });
    expect(short.sessionTimeouts).toEqual({ idleMs: 5000, unopenedMs: 20_000 });
    // The sweeper keeps up with a short timeout (every minute otherwise).
    expect(short.sweepIntervalMs).toBe(5000);
    expect(configFromEnv({}).sweepIntervalMs).toBe(60_000);
  });

  it('refuses a timeout that is not a whole number of milliseconds above 0, naming it', () => {
    for (const bad of ['0', '-5', '1.5', '30m', 'Infinity']) {
      expect(() => configFromEnv({ SESSION_IDLE_TIMEOUT_MS: bad })).toThrow(
        /^SESSION_IDLE_TIMEOUT_MS must be a whole number of milliseconds above 0/,
      );
    }
    expect(() => configFromEnv({ SESSION_UNOPENED_TIMEOUT_MS: 'x' })).toThrow(
      /^SESSION_UNOPENED_TIMEOUT_MS/,
    );
  });

  it('reads DATABASE_URL: unset is SQLite in DATA_DIR, postgres:// is PostgreSQL, else refused', () => {
    expect(configFromEnv({ DATA_DIR: '/srv/idv' }).database).toEqual({
      kind: 'sqlite',
      path: '/srv/idv/idv.sqlite',
    });
    expect(configFromEnv({ DATABASE_URL: ' ' }).database.kind).toBe('sqlite');
    for (const url of [
      'postgres://idv@db:5432/idv',
      'postgresql://idv:pw@db/idv?sslmode=require',
    ]) {
      expect(configFromEnv({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url });
    }
    // The URL may hold a password: the error names its scheme only.
    expect(() => configFromEnv({ DATABASE_URL: 'mysql://root:hunter2@db/idv' })).toThrow(
      /^DATABASE_URL must be a postgres:\/\/ URL, or unset for SQLite in DATA_DIR \(got a mysql: URL\)$/,
    );
    expect(() => configFromEnv({ DATABASE_URL: 'postgres://' })).toThrow(/^DATABASE_URL must/);
  });
});

describe('MEDIA_S3_BUCKET', () => {
  it('puts the media of `idv serve` in the bucket, behind our signed URLs', async () => {
    const s3 = await startS3Server(['idv-media']);
    const dir = mkdtempSync(join(tmpdir(), 'idv-main-s3-'));
    const lines: string[] = [];
    try {
      const server = await startServer({
        env: {
          DATA_DIR: dir,
          PORT: '0',
          MEDIA_S3_BUCKET: 'idv-media',
          MEDIA_S3_ENDPOINT: s3.endpoint,
          MEDIA_S3_PREFIX: 'test/',
          AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
        },
        log: (line) => lines.push(line),
        build: false,
      });
      try {
        expect(lines).toContain(`Media in s3://idv-media/test/ at ${s3.endpoint}`);
        const { media } = server.app.ctx;
        const rec = await media.save({
          sessionId: 'sess_1',
          accountId: 'acct_1',
          mode: 'test',
          kind: 'screenshot',
          contentType: 'image/png',
          bytes: Buffer.from('not really a png'),
        });
        expect(s3.keys('idv-media')).toEqual([`test/sessions/sess_1/${rec.id}.png`]);
        expect(existsSync(join(dir, 'media'))).toBe(false);
        const url = media.signedUrl(rec.id).url;
        expect(url.startsWith(`${server.url}/media/`)).toBe(true);
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('not really a png');
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await s3.stop();
    }
  });
});

describe('MEDIA_S3_BUCKET naming a bucket the server does not have', () => {
  it('stops the start, naming the bucket and the endpoint', async () => {
    const s3 = await startS3Server(['idv-media']);
    const dir = mkdtempSync(join(tmpdir(), 'idv-main-s3-'));
    try {
      const env = {
        DATA_DIR: dir,
        PORT: '0',
        MEDIA_S3_BUCKET: 'idv-missing',
        MEDIA_S3_ENDPOINT: s3.endpoint,
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      };
      await expect(startServer({ env, log: () => {}, build: false })).rejects.toThrow(
        `media bucket idv-missing at ${s3.endpoint}: no such bucket`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await s3.stop();
    }
  });
});

describe('DATABASE_URL=postgres:// for `idv sessions erase`', () => {
  it('goes to PostgreSQL, not to a SQLite file: an unreachable server is an error, no file is made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-dburl-'));
    try {
      const err: string[] = [];
      const code = await runCli(['sessions', 'erase', 'sess_x'], {
        env: { DATA_DIR: dir, DATABASE_URL: 'postgres://idv@127.0.0.1:1/idv' },
        out: () => {},
        err: (l) => err.push(l),
      });
      expect(code).toBe(1);
      expect(err.join('\n')).toMatch(/^idv sessions: .*(ECONNREFUSED|connect)/i);
      expect(existsSync(join(dir, 'idv.sqlite'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
