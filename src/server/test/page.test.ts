import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '../../core/api';
import { clientSecret } from '../ids';
import { buildSession } from '../sessions/create';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

const web = mkdtempSync(join(tmpdir(), 'idv-web-'));
let h: Harness;
beforeAll(async () => {
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>page</title><h1>Verify</h1>');
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(web, 'assets', 'app.js.map'), '{"version":3,"sources":["src/web/main.tsx"]}');
  writeFileSync(join(web, 'other.html'), '<!doctype html><title>other</title>');
  mkdirSync(join(web, 'sub'));
  writeFileSync(join(web, 'sub', 'page.html'), '<!doctype html><title>sub</title>');
  h = await startHarness({
    rateLimits: false,
    webDir: web,
    publicDir: fileURLToPath(new URL('../../../public', import.meta.url)),
  });
});
afterAll(async () => {
  await h.close();
  rmSync(web, { recursive: true, force: true });
});

describe('the hosted page on the same origin', () => {
  it('serves /verify and / with no-referrer and a strict CSP framing only the session embedders', async () => {
    const c = await h.call('POST', '/sessions', {
      body: { flow: MINIMAL_FLOW, embedOrigins: ['https://shop.example', 'http://localhost:8080'] },
    });
    const res = await fetch(`${h.url}/verify?client_secret=${c.body.clientSecret.secret}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>Verify</h1>');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'self' https://shop.example http://localhost:8080");
    const bare = await fetch(`${h.url}/verify`);
    expect(bare.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    // After the exchange the page's address carries the session id: a reload keeps its embedders.
    const reload = await fetch(`${h.url}/verify?session=${c.body.session.id}`);
    expect(reload.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'self' https://shop.example http://localhost:8080",
    );
    const unknown = await fetch(`${h.url}/verify?session=sess_unknown`);
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'(;|$)/);
    expect(bare.headers.get('content-security-policy')).not.toContain('shop.example');
    const root = await fetch(`${h.url}/`);
    expect(root.status).toBe(200);
    expect((await fetch(`${h.url}/assets/app.js`)).status).toBe(200);
    const missing = await fetch(`${h.url}/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { type: string } }).error.type).toBe(
      'not_found_error',
    );
  });

  it('redirects /index.html to /verify with its query, so the page always has its headers', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const r = await h.app.inject({ method, url: '/index.html?client_secret=cs_x&lang=fr' });
      expect([301, 308]).toContain(r.statusCode);
      expect(r.headers.location).toBe('/verify?client_secret=cs_x&lang=fr');
      expect(r.body).not.toContain('<h1>Verify</h1>');
    }
    const bare = await h.app.inject({ method: 'GET', url: '/index.html' });
    expect(bare.headers.location).toBe('/verify');
    // Doubled slashes route as single ones (the original SDK's base URLs), so this is the same file.
    const doubled = await h.app.inject({ method: 'GET', url: '//index.html' });
    expect([301, 308]).toContain(doubled.statusCode);
    expect(doubled.headers.location).toBe('/verify');
  });

  it("gives any other HTML file the page's headers, framed by our own origin only", async () => {
    for (const url of ['/other.html', '/sub/page.html', '//other.html', '/assets/../other.html']) {
      const r = await h.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-security-policy'], url).toMatch(/frame-ancestors 'self'$/);
      expect(r.headers['x-content-type-options'], url).toBe('nosniff');
      expect(r.headers['referrer-policy'], url).toBe('no-referrer');
      expect(r.headers['permissions-policy'], url).toBe('camera=(self), microphone=(self)');
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('keeps no-store on the page and nosniff on every static file', async () => {
    for (const url of ['/verify', '/', '/verify?session=sess_unknown']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const r = await h.app.inject({ method, url });
        expect(r.statusCode, `${method} ${url}`).toBe(200);
        expect(r.headers['cache-control'], `${method} ${url}`).toBe('no-store');
        expect(r.headers['x-content-type-options'], `${method} ${url}`).toBe('nosniff');
        expect(r.headers['content-security-policy'], `${method} ${url}`).toContain(
          "frame-ancestors 'self'",
        );
      }
    }
    const js = await h.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const avatar = await h.app.inject({ method: 'GET', url: '/avatars/mira.svg' });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never serves source maps', async () => {
    for (const url of ['/assets/app.js.map', '/assets/app.js%2Emap', '/assets/app.js.%6Dap']) {
      const r = await h.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
      expect(r.body, url).not.toContain('sources');
      expect(r.json<{ error: { type: string } }>().error.type).toBe('not_found_error');
    }
  });

  it("keeps a stored session's bad embedOrigins out of the CSP", async () => {
    // A session as an older version stored it, before embedOrigins were checked this strictly.
    const now = Date.now();
    const built = buildSession(
      { flow: MINIMAL_FLOW, embedOrigins: ['https://shop.example'] },
      {
        scope: { accountId: (await h.store.findAccount('acme'))!.id, mode: 'live' },
        version: LATEST_VERSION,
        now,
        avatarIds: new Set(),
        langIds: ['en'],
      },
      [],
    );
    if (!built.ok) throw new Error(JSON.stringify(built.problems));
    const bad = [
      'https://shop.example',
      'https://*.evil.example',
      'https://a.example;script-src *',
      "https://b.example; script-src 'unsafe-inline'",
      'https://c.example,https://d.example',
      'http://localhost:8080',
      '*',
    ];
    const session = {
      ...built.session,
      settings: { ...built.session.settings, embedOrigins: bad },
    };
    await h.store.createSession(session, {
      secret: clientSecret(session.id),
      sessionId: session.id,
      createdAt: now,
      expireAt: now + 3_600_000,
      usedAt: null,
      revokedAt: null,
    });
    const r = await h.app.inject({ method: 'GET', url: `/verify?session=${session.id}` });
    expect(r.statusCode).toBe(200);
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toMatch(/; frame-ancestors 'self' https:\/\/shop\.example$/);
    expect(csp.match(/script-src/g)).toHaveLength(1);
  });

  it('serves the avatar images that GET /avatars links to', async () => {
    const list = await h.call('GET', '/avatars');
    for (const a of list.body.avatars as { imageUrl: string }[]) {
      const path = new URL(a.imageUrl).pathname;
      const img = await fetch(`${h.url}${path}`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toContain('image/svg+xml');
      expect(await img.text()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    }
  });
});

describe('unexpected failures', () => {
  it('answer api_error 500 without internals', async () => {
    const broken = await startHarness({ rateLimits: false });
    try {
      broken.store.listLangs = async () => {
        throw new Error('SQLITE_CORRUPT: /secret/path/idv.sqlite page 7');
      };
      const r = await broken.call('GET', '/langs');
      expect(r.status).toBe(500);
      expect(r.body).toEqual({
        error: { type: 'api_error', message: 'An unexpected error occurred on our side' },
      });
      expect(JSON.stringify(r.body)).not.toContain('SQLITE');
    } finally {
      await broken.close();
    }
  });
});
