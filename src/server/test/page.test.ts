import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

const web = mkdtempSync(join(tmpdir(), 'idv-web-'));
let h: Harness;
beforeAll(async () => {
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>page</title><h1>Verify</h1>');
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
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
