import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../scripts/lib/precompress';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

// A built page as `npm run build` leaves it: files with their brotli and gzip copies beside them.
const web = mkdtempSync(join(tmpdir(), 'idv-web-enc-'));
const JS = `export const words = ${JSON.stringify('verify your identity '.repeat(300))};\n`;
const HTML = `<!doctype html><title>page</title><h1>Verify</h1>${'<!-- pad -->'.repeat(100)}`;
const WASM = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(5000)]);
let h: Harness;
beforeAll(async () => {
  writeFileSync(join(web, 'index.html'), HTML);
  writeFileSync(join(web, 'other.html'), HTML);
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'assets', 'app-1a2b3c.js'), JS);
  writeFileSync(join(web, 'assets', 'app-1a2b3c.js.map'), '{"version":3,"sources":["a.ts"]}');
  mkdirSync(join(web, 'mediapipe'));
  writeFileSync(join(web, 'mediapipe', 'vision.wasm'), WASM);
  await precompressDir(web);
  h = await startHarness({ rateLimits: false, webDir: web, publicDir: null });
});
afterAll(async () => {
  await h.close();
  rmSync(web, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  h.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

describe('the built page by Accept-Encoding', () => {
  it('sends brotli, else gzip, else the plain file, always with Vary: Accept-Encoding', async () => {
    const br = await get('/assets/app-1a2b3c.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(JS);
    expect(br.rawPayload.length).toBeLessThan(JS.length / 4);

    const gz = await get('/assets/app-1a2b3c.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(JS);

    for (const plain of [
      await get('/assets/app-1a2b3c.js'),
      await get('/assets/app-1a2b3c.js', 'identity'),
    ]) {
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(JS);
    }
    for (const r of [br, gz, await get('/assets/app-1a2b3c.js')]) {
      expect(r.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
      expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('keeps the wasm type on a compressed wasm, and revalidates files without a hash', async () => {
    const r = await get('/mediapipe/vision.wasm', 'br');
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toBe('application/wasm');
    expect(brotliDecompressSync(r.rawPayload).equals(WASM)).toBe(true);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
  });

  it("sends the page compressed with its own headers: no-store and the session's embedders", async () => {
    const c = await h.call('POST', '/sessions', {
      body: { flow: MINIMAL_FLOW, embedOrigins: ['https://shop.example'] },
    });
    for (const url of [`/verify?client_secret=${c.body.clientSecret.secret}`, '/']) {
      const r = await get(url, 'br');
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-encoding'], url).toBe('br');
      expect(r.headers['content-type'], url).toMatch(/^text\/html/);
      expect(brotliDecompressSync(r.rawPayload).toString(), url).toBe(HTML);
      expect(r.headers['cache-control'], url).toBe('no-store');
      expect(String(r.headers.vary), url).toMatch(/accept-encoding/i);
    }
    const page = await get(`/verify?session=${c.body.session.id}`, 'gzip');
    expect(page.headers['content-security-policy']).toContain(
      "frame-ancestors 'self' https://shop.example",
    );
    // An HTML file by its name keeps the page's headers when it goes out compressed too.
    const other = await get('/other.html', 'br');
    expect(other.headers['content-encoding']).toBe('br');
    expect(other.headers['cache-control']).toBe('no-store');
    expect(other.headers['content-security-policy']).toMatch(/frame-ancestors 'self'$/);
  });

  it('never serves the compressed copies by their own names, nor a source map in any encoding', async () => {
    for (const url of [
      '/assets/app-1a2b3c.js.br',
      '/assets/app-1a2b3c.js.gz',
      '/index.html.br',
      '/assets/app-1a2b3c.js.map',
    ]) {
      for (const enc of [undefined, 'br', 'gzip']) {
        const r = await get(url, enc);
        expect(r.statusCode, `${url} ${enc}`).toBe(404);
        expect(r.json<{ error: { type: string } }>().error.type).toBe('not_found_error');
      }
    }
  });
});
