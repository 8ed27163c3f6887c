/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers read field by field */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, idv, serve } from './process';

const dir = mkdtempSync(join(tmpdir(), 'idv-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = async (url: string, key: string) =>
  fetch(url, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

describe('idv', () => {
  it('first start: default account, a test key and a ready demo session; keys managed while it runs', async () => {
    const env = { DATA_DIR: dir, PORT: '0' };
    const server = await serve(env);
    try {
      const log = server.log();
      const testKey = /Test API key \(shown once, keep it\): (sk_test_\S+)/.exec(
        log,
      )?.[1] as string;
      expect(testKey).toBeTruthy();
      const demoUrl = /Demo session \(test mode, code 000000\): (\S+)/.exec(log)?.[1] as string;
      expect(demoUrl).toMatch(new RegExp(`^${server.url}/verify\\?client_secret=cs_`));
      const list = await get(`${server.url}/sessions`, testKey);
      expect(list.body.sessions).toHaveLength(1);
      expect(list.body.sessions[0].settings.clientReferenceId).toBe('demo');
      const secret = new URL(demoUrl).searchParams.get('client_secret');
      const ex = await fetch(`${server.url}/client/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientSecret: secret }),
      });
      expect(ex.status).toBe(200);

      const created = await idv(['keys', 'create', '--mode', 'live', '--account', 'shop'], env);
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^sk_live_[A-Za-z0-9_-]{43}\n$/);
      const liveKey = created.stdout.trim();
      const live = await get(`${server.url}/sessions`, liveKey);
      expect(live.status).toBe(200);
      expect(live.body.sessions).toEqual([]);

      const listed = await idv(['keys', 'list'], env);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(testKey.slice(0, 16));
      expect(listed.stdout).toContain(liveKey.slice(0, 16));
      expect(listed.stdout).toMatch(/shop/);
      expect(listed.stdout).not.toContain(liveKey);

      const revoked = await idv(['keys', 'revoke', liveKey.slice(0, 14)], env);
      expect(revoked.code).toBe(0);
      expect((await get(`${server.url}/sessions`, liveKey)).body.error.code).toBe(
        'api_key_invalid',
      );
      expect((await idv(['keys', 'list'], env)).stdout).toMatch(/revoked/);
      expect((await idv(['keys', 'revoke', liveKey.slice(0, 14)], env)).code).toBe(1);

      expect((await idv(['keys', 'create'], env)).code).toBe(2);
      expect((await idv(['keys', 'revoke', 'sk'], env)).code).toBe(2);
      expect((await idv(['nope'], env)).code).toBe(2);
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  }, 90_000);
});
