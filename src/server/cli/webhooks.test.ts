import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite';
import { createWebhookDispatcher } from '../webhooks/dispatcher';
import { createSqliteWebhookStore } from '../webhooks/sqlite-store';
import { startReceiver } from '../webhooks/test-support';
import { runIdv } from './test-support';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-cli-webhooks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const idv = (...argv: string[]) => runIdv(dir, ...argv);

/** Reads the data folder's database directly, as a second process would. */
async function withDb<T>(fn: (db: ReturnType<typeof openSqliteStore>['db']) => Promise<T>) {
  const store = openSqliteStore({ path: join(dir, 'idv.sqlite') });
  try {
    return await fn(store.db);
  } finally {
    await store.close();
  }
}

describe('idv webhooks', () => {
  it('add prints the signing secret alone; list, rotate and remove work on it', async () => {
    expect((await idv('keys', 'create', '--mode', 'test')).code).toBe(0);
    const added = await idv(
      'webhooks',
      'add',
      'https://hooks.example.com/idv',
      '--events',
      'session.status,media.*',
    );
    expect(added.code).toBe(0);
    expect(added.out).toHaveLength(1);
    expect(added.out[0]).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(added.err).toMatch(/Registered we_\w+ for account "default" \(test mode\)/);
    const id = /Registered (we_\w+)/.exec(added.err)![1]!;

    const listed = await idv('webhooks', 'list');
    expect(listed.out.join('\n')).toContain(id);
    expect(listed.out.join('\n')).toContain('session.status,media.*');
    const json = await idv('webhooks', 'list', '--json');
    expect(json.out.join('\n')).not.toContain('whsec_');
    expect(JSON.parse(json.out.join('\n'))).toMatchObject([
      { id, mode: 'test', accountName: 'default', signingSecrets: 1 },
    ]);

    const rotated = await idv('webhooks', 'rotate', id);
    expect(rotated.code).toBe(0);
    expect(rotated.out).toHaveLength(1);
    expect(rotated.out[0]).toMatch(/^whsec_/);
    expect(rotated.out[0]).not.toBe(added.out[0]);
    expect(rotated.err).toContain('two v1= signatures');
    expect((await idv('webhooks', 'list')).out.join('\n')).toMatch(/2 \(rotating until \d{4}-/);

    expect((await idv('webhooks', 'remove', id)).code).toBe(0);
    expect((await idv('webhooks', 'remove', id)).code).toBe(1);
    expect((await idv('webhooks', 'list', '--json')).out.join('')).toBe('[]');
  });

  it('reports every problem of a registration at once and registers nothing', async () => {
    await idv('keys', 'create', '--mode', 'test');
    const r = await idv(
      'webhooks',
      'add',
      'http://169.254.169.254/latest',
      '--events',
      'session.completed',
      '--mode',
      'prod',
    );
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toContain('link-local');
    expect(r.err).toContain('"session.completed"');
    expect(r.err).toContain('--mode must be test or live');
    expect((await idv('webhooks', 'add', 'ftp://x.example/')).err).toContain('http or https');
    expect((await idv('webhooks', 'add', 'https://x.example/', '--account', 'nobody')).code).toBe(
      1,
    );
    expect((await idv('webhooks', 'add')).code).toBe(2);
    expect((await idv('webhooks', 'add', 'https://x.example/', '--bogus')).code).toBe(2);
    expect((await idv('webhooks', 'list', '--json')).out.join('')).toBe('[]');
  });

  it('refuses a URL whose password is not valid percent-encoding, saying why', async () => {
    await idv('keys', 'create', '--mode', 'test');
    const r = await idv('webhooks', 'add', 'https://user:%zz@hooks.example.com/idv');
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toContain(
      "webhooks add: the URL's password is not valid percent-encoding (a % must start %XX of UTF-8)",
    );
    expect((await idv('webhooks', 'list', '--json')).out.join('')).toBe('[]');
    // A password that decodes is kept (sent as Basic authentication) and masked when shown.
    const ok = await idv('webhooks', 'add', 'https://user:p%40ss@hooks.example.com/idv');
    expect(ok.code).toBe(0);
    expect(ok.err).toContain('https://user:***@hooks.example.com/idv');
  });

  it('registers a live endpoint that only live events reach', async () => {
    await idv('keys', 'create', '--mode', 'live');
    const r = await idv('webhooks', 'add', 'https://x.example/', '--mode', 'live');
    expect(r.code).toBe(0);
    const [ep] = JSON.parse((await idv('webhooks', 'list', '--json')).out.join('\n'));
    expect(ep.mode).toBe('live');
  });

  it('prints only the secret on stdout through the real `idv` binary', () => {
    const bin = fileURLToPath(new URL('../../../bin/idv.mjs', import.meta.url));
    const env = { ...process.env, DATA_DIR: dir };
    expect(
      spawnSync(process.execPath, [bin, 'keys', 'create', '--mode', 'test'], { env }).status,
    ).toBe(0);
    const r = spawnSync(process.execPath, [bin, 'webhooks', 'add', 'https://x.example/hook'], {
      env,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^whsec_[A-Za-z0-9_-]{43}\n$/);
  }, 30_000);
});

describe('idv avatars, idv langs and idv events', () => {
  it('an avatar change fires settings.avatars, delivered to subscribed endpoints of every account', async () => {
    const receiver = await startReceiver((req) => (req.path.includes('/a') ? 200 : 404));
    try {
      await idv('keys', 'create', '--mode', 'test', '--account', 'alpha');
      await idv('keys', 'create', '--mode', 'live', '--account', 'beta');
      const base = `http://127.0.0.1:${receiver.port}`;
      await idv('webhooks', 'add', `${base}/a`, '--account', 'alpha', '--events', 'settings.*');
      await idv('webhooks', 'add', `${base}/b`, '--account', 'beta', '--mode', 'live');
      await idv('webhooks', 'add', `${base}/c`, '--account', 'beta', '--events', 'session.status');

      const added = await idv(
        'avatars',
        'add',
        '--name',
        'Iris',
        '--gender',
        'female',
        '--image',
        '/avatars/iris.svg',
      );
      expect(added.code).toBe(0);
      const avatarId = added.out[0]!;
      expect((await idv('avatars', 'list')).out.join('\n')).toContain(avatarId);

      const dispatch = () =>
        withDb(async (db) => {
          const d = createWebhookDispatcher({
            store: createSqliteWebhookStore(db),
            retryDelaysMs: [],
          });
          await d.runUntilIdle();
          await d.stop();
        });
      await dispatch();
      expect(receiver.requests.map((r) => r.path).sort()).toEqual(['/a', '/b']);
      const body = JSON.parse(receiver.requests[0]!.body.toString());
      expect(body).toMatchObject({ type: 'settings.avatars', sessionId: '' });

      const failed = await idv('events', 'list', '--failed');
      expect(failed.out[0]).toContain(body.id);
      expect(failed.out.join('\n')).toContain('HTTP 404');
      expect(failed.out.join('\n')).not.toContain('/a');

      const again = await idv('events', 'redeliver', body.id);
      expect(again.code).toBe(0);
      expect(again.err).toContain('Queued 2 deliveries');
      expect((await idv('events', 'redeliver', 'evt_nope')).code).toBe(1);

      expect((await idv('avatars', 'update', avatarId, '--name', 'Iris B')).code).toBe(0);
      expect((await idv('avatars', 'update', avatarId, '--gender', 'robot')).code).toBe(2);
      expect((await idv('avatars', 'remove', avatarId)).code).toBe(0);
      expect((await idv('avatars', 'remove', avatarId)).code).toBe(1);
      const all = JSON.parse((await idv('events', 'list', '--json')).out.join('\n'));
      expect(all.filter((e: { type: string }) => e.type === 'settings.avatars')).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });

  it('langs remove and add change GET /langs and fire settings.langs; en stays', async () => {
    expect((await idv('langs', 'remove', 'pt')).code).toBe(0);
    expect((await idv('langs', 'list')).out.map((l) => l.split(' ')[0])).not.toContain('pt');
    expect((await idv('langs', 'remove', 'pt')).err).toContain('not listed');
    expect((await idv('langs', 'add', 'pt')).code).toBe(0);
    expect((await idv('langs', 'list')).out.map((l) => l.split(' ')[0])).toEqual([
      'en',
      'fr',
      'de',
      'ru',
      'es',
      'id',
      'no',
      'pt',
      'it',
    ]);
    expect((await idv('langs', 'remove', 'en')).code).toBe(2);
    expect((await idv('langs', 'add', 'xx')).code).toBe(2);
    const events = JSON.parse((await idv('events', 'list', '--json')).out.join('\n'));
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      'settings.langs',
      'settings.langs',
    ]);
  });
});
