import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { mediaRoutes } from './routes';
import { jpegBytes, openMediaFixture, partsOf, type MediaFixture } from './test-support';
import { MEDIA_URL_TTL_MS } from './types';

let f: MediaFixture | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  await f?.close();
  app = undefined;
  f = undefined;
});

async function setup() {
  f = openMediaFixture();
  app = Fastify();
  mediaRoutes(app, f.media, { clock: f.clock });
  await app.ready();
  const bytes = jpegBytes(4096);
  const rec = await f.media.save({
    sessionId: 'sess_1',
    accountId: 'acct_1',
    mode: 'test',
    kind: 'user_photo',
    contentType: 'image/jpeg',
    bytes,
  });
  return { f, app, rec, bytes };
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('GET /media/:id', () => {
  it('serves the bytes of a signed URL with their type, privately cached until expiry', async () => {
    const { f, app, rec, bytes } = await setup();
    const signed = f.media.signedUrl(rec.id);
    const res = await app.inject({ method: 'GET', url: pathOf(signed.url) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-length']).toBe('4096');
    expect(res.headers['cache-control']).toBe(`private, max-age=${MEDIA_URL_TTL_MS / 1000}`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    f.clock.advance(600_500);
    const later = await app.inject({ method: 'GET', url: pathOf(signed.url) });
    expect(later.statusCode).toBe(200);
    expect(later.headers['cache-control']).toBe('private, max-age=299');
  });

  it('refuses the URL once it has expired', async () => {
    const { f, app, rec } = await setup();
    const signed = f.media.signedUrl(rec.id);
    f.clock.advance(MEDIA_URL_TTL_MS);
    const res = await app.inject({ method: 'GET', url: pathOf(signed.url) });
    expect(res.statusCode).toBe(403);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      error: {
        type: 'authentication_error',
        message: expect.stringMatching(/expired/),
        code: 'media_url_expired',
      },
    });
  });

  it('refuses any change of id, expires or sig, and missing parts', async () => {
    const { f, app, rec } = await setup();
    const other = await f.media.save({ ...rec, bytes: jpegBytes() });
    const p = partsOf(f.media.signedUrl(rec.id).url);
    const flip = (s: string, i: number) =>
      s.slice(0, i) + ((parseInt(s[i] ?? '0', 16) + 1) % 16).toString(16) + s.slice(i + 1);
    const tampered = [
      `/media/${other.id}?expires=${p.expires}&sig=${p.sig}`,
      `/media/${rec.id}x?expires=${p.expires}&sig=${p.sig}`,
      `/media/${rec.id}?expires=${Number(p.expires) + 1}&sig=${p.sig}`,
      `/media/${rec.id}?expires=${Number(p.expires) + 86_400_000}&sig=${p.sig}`,
      `/media/${rec.id}?expires=${Number(p.expires) - 1}&sig=${p.sig}`,
      `/media/${rec.id}?expires=${p.expires}&sig=${flip(p.sig, 0)}`,
      `/media/${rec.id}?expires=${p.expires}&sig=${flip(p.sig, 63)}`,
      `/media/${rec.id}?expires=${p.expires}&sig=${p.sig}&sig=${p.sig}`,
      `/media/${rec.id}?expires=${p.expires}`,
      `/media/${rec.id}?sig=${p.sig}`,
      `/media/${rec.id}`,
    ];
    for (const url of tampered) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual({
        error: {
          type: 'authentication_error',
          message: expect.any(String),
          code: 'media_url_invalid',
        },
      });
    }
    // The original still works: the refusals above were for the changes alone.
    const ok = await app.inject({
      method: 'GET',
      url: `/media/${rec.id}?expires=${p.expires}&sig=${p.sig}`,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 404 for a validly signed unknown id and for a record whose bytes are gone', async () => {
    const { f, app, rec } = await setup();
    const unknown = await app.inject({
      method: 'GET',
      url: pathOf(f.media.signedUrl('med_000000000000000000000000').url),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: { type: 'not_found_error', message: 'Media not found' },
    });
    rmSync(join(f.files.dir, 'sessions/sess_1', `${rec.id}.jpg`));
    const gone = await app.inject({ method: 'GET', url: pathOf(f.media.signedUrl(rec.id).url) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.type).toBe('not_found_error');
  });

  it('answers 404 after the session media were deleted, even for an unexpired URL', async () => {
    const { f, app, rec } = await setup();
    const url = pathOf(f.media.signedUrl(rec.id).url);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    await f.media.deleteForSession('sess_1');
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});
