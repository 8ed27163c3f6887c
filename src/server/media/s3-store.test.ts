/**
 * The S3 store's own behaviour (the shared one is in store-contract.test.ts): prefixes, errors
 * that must not read as a missing object, and the service's signed URLs served from a bucket.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from '../test/s3Server';
import { mediaRoutes } from './routes';
import { createS3MediaStore, type S3MediaStoreOptions } from './s3-store';
import { jpegBytes, openMediaFixture, partsOf } from './test-support';
import { MEDIA_URL_TTL_MS } from './types';

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server(['shared', 'service']);
}, 30_000);
afterAll(() => s3.stop());

const open = (options: Partial<S3MediaStoreOptions> = {}) =>
  createS3MediaStore({
    bucket: 'shared',
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    ...options,
  });

describe('the S3 media store', () => {
  it('keeps each deployment under its prefix, unseen by another prefix', async () => {
    const one = open({ prefix: 'one/' });
    const two = open({ prefix: 'two/' });
    try {
      await one.put('sessions/sess_1/med_1.jpg', Buffer.from('one'), 'image/jpeg');
      expect(s3.keys('shared')).toEqual(['one/sessions/sess_1/med_1.jpg']);
      expect(await two.get('sessions/sess_1/med_1.jpg')).toBeNull();
      await two.delete('sessions/sess_1/med_1.jpg');
      expect((await one.get('sessions/sess_1/med_1.jpg'))?.bytes.toString()).toBe('one');
      await one.delete('sessions/sess_1/med_1.jpg');
      expect(s3.keys('shared')).toEqual([]);
    } finally {
      one.close();
      two.close();
    }
  });

  it('fails on a bucket that does not exist instead of answering "no such object"', async () => {
    const store = open({ bucket: 'no-such-bucket' });
    try {
      await expect(store.check()).rejects.toThrow(
        `media bucket no-such-bucket at ${s3.endpoint}: no such bucket`,
      );
      await open().check();
      await expect(store.get('sessions/sess_1/med_1.jpg')).rejects.toThrow(/bucket/i);
      await expect(
        store.put('sessions/sess_1/med_1.jpg', Buffer.from('x'), 'image/jpeg'),
      ).rejects.toThrow(/bucket/i);
    } finally {
      store.close();
    }
  });

  it('fails with credentials the server refuses, for reads as for writes', async () => {
    // s3rver checks the key id (it does not recompute SigV4 signatures): an unknown one is refused.
    const store = open({ credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' } });
    try {
      await expect(store.check()).rejects.toThrow(/: access refused \(check AWS_ACCESS_KEY_ID/);
      await expect(store.get('sessions/sess_1/med_1.jpg')).rejects.toThrow(/access key/i);
      await expect(
        store.put('sessions/sess_1/med_1.jpg', Buffer.from('x'), 'image/jpeg'),
      ).rejects.toThrow(/access key/i);
      expect(s3.keys('shared')).toEqual([]);
    } finally {
      store.close();
    }
  });
});

describe('media on S3 through the service', () => {
  it('serves our signed URL (15 minutes) from the bucket, never a URL of the bucket', async () => {
    const store = open({ bucket: 'service' });
    const f = openMediaFixture({ store });
    const app = Fastify();
    mediaRoutes(app, f.media, { clock: f.clock });
    try {
      const bytes = jpegBytes();
      const rec = await f.media.save({
        sessionId: 'sess_1',
        accountId: 'acct_1',
        mode: 'test',
        kind: 'user_photo',
        contentType: 'image/jpeg',
        bytes,
      });
      expect(s3.keys('service')).toEqual([`sessions/sess_1/${rec.id}.jpg`]);
      const signed = f.media.signedUrl(rec.id);
      expect(signed.url.startsWith('http://127.0.0.1:3999/media/')).toBe(true);
      expect(signed.url).not.toContain(s3.endpoint);
      const path = `${partsOf(signed.url).path}?${new URL(signed.url).searchParams}`;

      const res = await app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.equals(bytes)).toBe(true);

      f.clock.advance(MEDIA_URL_TTL_MS + 1);
      const late = await app.inject({ method: 'GET', url: path });
      expect(late.statusCode).toBe(403);
      expect(late.json().error.code).toBe('media_url_expired');

      expect(await f.media.deleteForSession('sess_1')).toBe(1);
      expect(s3.keys('service')).toEqual([]);
    } finally {
      await app.close();
      store.close();
      await f.close();
    }
  });
});
