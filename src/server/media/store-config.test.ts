import { describe, expect, it } from 'vitest';
import { describeMediaStore, mediaStoreConfigFromEnv } from './store-config';

const DATA = '/srv/idv';

describe('where media go, from the environment', () => {
  it('is DATA_DIR/media with no MEDIA_S3_BUCKET (AWS_* alone change nothing)', () => {
    const config = mediaStoreConfigFromEnv({ AWS_ACCESS_KEY_ID: 'a', AWS_REGION: 'x' }, DATA);
    expect(config).toEqual({ kind: 'folder', dir: '/srv/idv/media' });
    expect(mediaStoreConfigFromEnv({ MEDIA_S3_BUCKET: ' ' }, DATA).kind).toBe('folder');
  });

  it('is the bucket, path-style at an endpoint by default, with the AWS_* key pair', () => {
    const config = mediaStoreConfigFromEnv(
      {
        MEDIA_S3_BUCKET: 'idv-media',
        MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000',
        MEDIA_S3_PREFIX: 'prod/eu/',
        AWS_ACCESS_KEY_ID: 'AKID',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: 'token',
      },
      DATA,
    );
    expect(config).toEqual({
      kind: 's3',
      options: {
        bucket: 'idv-media',
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9000',
        forcePathStyle: true,
        prefix: 'prod/eu/',
        credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token' },
      },
    });
    expect(describeMediaStore(config)).toBe('s3://idv-media/prod/eu/ at http://127.0.0.1:9000');
  });

  it('is Amazon S3 of AWS_REGION, virtual-hosted, with the SDK chain, given only a bucket', () => {
    const config = mediaStoreConfigFromEnv(
      { MEDIA_S3_BUCKET: 'idv-media', AWS_REGION: 'eu-west-3', AWS_ACCESS_KEY_ID: 'half' },
      DATA,
    );
    expect(config).toEqual({
      kind: 's3',
      options: { bucket: 'idv-media', region: 'eu-west-3', forcePathStyle: false },
    });
    const regioned = mediaStoreConfigFromEnv(
      { MEDIA_S3_BUCKET: 'idv-media', MEDIA_S3_REGION: 'auto', MEDIA_S3_FORCE_PATH_STYLE: 'true' },
      DATA,
    );
    expect(regioned.kind === 's3' && regioned.options).toMatchObject({
      region: 'auto',
      forcePathStyle: true,
    });
  });

  it.each([
    [{ MEDIA_S3_ENDPOINT: 'http://s3:9000' }, /MEDIA_S3_ENDPOINT set without MEDIA_S3_BUCKET/],
    [{ MEDIA_S3_BUCKET: 'Idv_Media' }, /MEDIA_S3_BUCKET must be a bucket name/],
    [{ MEDIA_S3_BUCKET: 'ab' }, /MEDIA_S3_BUCKET must be a bucket name/],
    [{ MEDIA_S3_BUCKET: 'idv', MEDIA_S3_ENDPOINT: 's3:9000' }, /MEDIA_S3_ENDPOINT must be an http/],
    [{ MEDIA_S3_BUCKET: 'idv', MEDIA_S3_FORCE_PATH_STYLE: 'yes' }, /must be true or false/],
    [{ MEDIA_S3_BUCKET: 'idv', MEDIA_S3_PREFIX: 'prod' }, /MEDIA_S3_PREFIX must be folders/],
    [{ MEDIA_S3_BUCKET: 'idv', MEDIA_S3_PREFIX: '../x/' }, /MEDIA_S3_PREFIX must be folders/],
  ])('refuses %j, naming the setting', (env, message) => {
    expect(() => mediaStoreConfigFromEnv(env, DATA)).toThrow(message);
  });
});
