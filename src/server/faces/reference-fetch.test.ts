import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_SPELLINGS } from '../webhooks/embedded-ipv4.cases';
import { fetchReference, referenceRefusal } from './reference-fetch';

/** A real HTTP server on loopback: what a malicious reference URL would point at. */
let server: Server;
let base: string;
let hits = 0;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === '/image.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PNG_MAGIC);
    }
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (req.url === '/big') {
      // No content-length: the limit must hold while the body streams.
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.write(Buffer.alloc(600));
      res.write(Buffer.alloc(600));
      return res.end();
    }
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('fetchReference', () => {
  it('refuses 127.0.0.1 by default, without connecting', async () => {
    const before = hits;
    const r = await fetchReference(`https://${base}/image.png`);
    expect(r).toMatchObject({ ok: false, reason: 'blocked' });
    expect(!r.ok && r.message).toMatch(/127\.0\.0\.1 is loopback/);
    expect(hits).toBe(before);
  });

  it('refuses a name that resolves to loopback, by the address connected to', async () => {
    const before = hits;
    const port = base.split(':')[1];
    const r = await fetchReference(`http://localhost:${port}/image.png`, { allowHttp: true });
    expect(r).toMatchObject({ ok: false, reason: 'blocked' });
    expect(!r.ok && r.message).toMatch(/localhost: address .* is loopback/);
    expect(hits).toBe(before);
  });

  it('refuses the cloud metadata address and other link-local ones', async () => {
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://[::ffff:169.254.169.254]/',
      'https://[fe80::1]/x.jpg',
      'https://10.0.0.8/x.jpg',
    ]) {
      const r = await fetchReference(url, { timeoutMs: 500 });
      expect(r, url).toMatchObject({ ok: false, reason: 'blocked' });
    }
  });

  it.each(EMBEDDED_SPELLINGS.filter((s) => s.kind !== 'public'))(
    'refuses $form $ip ($kind) without connecting',
    async ({ ip, kind }) => {
      const before = hits;
      const port = base.split(':')[1];
      for (const policy of ['none', 'local'] as const) {
        if (policy === 'local' && (kind === 'loopback' || kind === 'private')) continue;
        const r = await fetchReference(`http://[${ip}]:${port}/image.png`, {
          policy,
          allowHttp: true,
          timeoutMs: 1_000,
        });
        expect(r).toMatchObject({ ok: false, reason: 'blocked' });
        expect(!r.ok && r.message).toContain(`is ${kind}; reference images`);
      }
      expect(hits).toBe(before);
    },
  );

  it('lets an IPv6 form that embeds a public IPv4 address through the address policy', () => {
    const open = EMBEDDED_SPELLINGS.filter((s) => s.kind === 'public');
    expect(open.length).toBeGreaterThan(5);
    for (const { ip } of open) expect(referenceRefusal(ip, 'none'), ip).toBeNull();
  });

  it('refuses plain http and other schemes', async () => {
    expect(await fetchReference('http://example.com/a.jpg')).toMatchObject({
      ok: false,
      reason: 'blocked',
    });
    expect(await fetchReference('file:///etc/passwd')).toMatchObject({
      ok: false,
      reason: 'blocked',
    });
  });

  // The rest needs the loopback server reachable: the test relaxes the policy to `local`.
  const local = { policy: 'local' as const, allowHttp: true };

  it('reads an image when the policy allows the address', async () => {
    const r = await fetchReference(`http://${base}/image.png`, local);
    expect(r.ok && r.bytes.equals(PNG_MAGIC)).toBe(true);
  });

  it('never follows a redirect', async () => {
    const r = await fetchReference(`http://${base}/redirect`, local);
    expect(r).toMatchObject({ ok: false, reason: 'redirect' });
    expect(!r.ok && r.message).toMatch(/302/);
  });

  it('stops a body over the size limit', async () => {
    const r = await fetchReference(`http://${base}/big`, { ...local, maxBytes: 1000 });
    expect(r).toMatchObject({ ok: false, reason: 'too_large' });
    const fits = await fetchReference(`http://${base}/big`, { ...local, maxBytes: 1200 });
    expect(fits.ok && fits.bytes.length).toBe(1200);
  });

  it('gives up after the time limit', async () => {
    const t0 = Date.now();
    const r = await fetchReference(`http://${base}/slow`, { ...local, timeoutMs: 200 });
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it('reports an error status', async () => {
    expect(await fetchReference(`http://${base}/nothing`, local)).toMatchObject({
      ok: false,
      reason: 'http_status',
    });
  });
});
