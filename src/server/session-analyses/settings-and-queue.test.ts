/**
 * `idv settings deepfake` over a real data folder, and workers that share the jobs table taking
 * only their own kinds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runIdv } from '../cli/test-support';
import { sqliteJobQueue } from '../jobs/queue';
import { SERVER_MIGRATIONS } from '../features';
import { openSqliteStore } from '../store/sqlite';
import { sqliteAccountSettings } from './account-settings';

const dir = mkdtempSync(join(tmpdir(), 'idv-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runIdv(dir, ...argv);

describe('idv settings', () => {
  it('turns deepfake detection on and off per account, stored in the DB', async () => {
    expect((await cli('keys', 'create', '--mode', 'test', '--account', 'acme')).code).toBe(0);
    expect((await cli('keys', 'create', '--mode', 'test', '--account', 'other')).code).toBe(0);
    expect(await cli('settings', 'deepfake', 'on', '--account', 'acme')).toMatchObject({
      code: 0,
      out: ['deepfake on'],
    });
    expect((await cli('settings', 'show', '--account', 'other')).out).toEqual(['deepfake off']);
    const store = openSqliteStore({
      path: join(dir, 'idv.sqlite'),
      migrations: SERVER_MIGRATIONS,
      backgroundCheckpoints: false,
    });
    const settings = sqliteAccountSettings(store.db);
    expect(await settings.deepfakeEnabled((await store.findAccount('acme'))!.id)).toBe(true);
    expect(await settings.deepfakeEnabled((await store.findAccount('other'))!.id)).toBe(false);
    await store.close();
    expect((await cli('settings', 'deepfake', 'off', '--account', 'acme')).out).toEqual([
      'deepfake off',
    ]);
  });
  it('refuses bad usage and unknown accounts', async () => {
    expect((await cli('settings', 'deepfake', 'maybe')).code).toBe(2);
    expect((await cli('settings', 'show', '--account', 'nobody')).code).toBe(1);
  });
});

describe('job queue kinds', () => {
  it('a claim with kinds takes only those', async () => {
    const store = openSqliteStore({
      path: join(dir, 'q.sqlite'),
      migrations: SERVER_MIGRATIONS,
      backgroundCheckpoints: false,
    });
    const q = sqliteJobQueue(store.db);
    q.enqueue('liveness.frame', {}, 0);
    q.enqueue('analyses.session', {}, 0);
    expect(q.claim(10, 100, ['analyses.session'])?.kind).toBe('analyses.session');
    expect(q.claim(10, 100, ['analyses.session'])).toBeNull();
    expect(q.claim(10, 100)?.kind).toBe('liveness.frame');
    await store.close();
  });
});
