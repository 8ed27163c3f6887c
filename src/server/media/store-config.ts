/**
 * Where media bytes live, from the environment: `DATA_DIR/media` by default, an S3-compatible
 * bucket when `MEDIA_S3_BUCKET` is set (docs/deploy.md, "Media on object storage").
 */
import { join } from 'node:path';
import { createFsMediaStore } from './fs-store';
import type { S3MediaStoreOptions } from './s3-store';
import type { MediaStore } from './types';

export type MediaStoreConfig =
  { kind: 'folder'; dir: string } | { kind: 's3'; options: S3MediaStoreOptions };

/** S3's bucket naming rule (lowercase, digits, dots and hyphens, 3 to 63 characters). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A prefix is key segments ending in `/`, so that `prefix + key` is still a plain key. */
const PREFIX = /^([a-z0-9_-][a-z0-9_.-]*\/)+$/;

/**
 * Reads `MEDIA_S3_BUCKET`, `MEDIA_S3_ENDPOINT`, `MEDIA_S3_REGION` (else `AWS_REGION`, else
 * `us-east-1`), `MEDIA_S3_FORCE_PATH_STYLE` (`true` by default with an endpoint, `false` without)
 * and `MEDIA_S3_PREFIX`. Credentials: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with
 * `AWS_SESSION_TOKEN`) when both are set, else the SDK's chain (`AWS_PROFILE`, instance roles…).
 * A `MEDIA_S3_*` setting without a bucket, or a malformed one, is refused: a typo must not put
 * media on the local disk of one instance among several.
 *
 * @example
 * mediaStoreConfigFromEnv({}, '/srv/idv'); // { kind: 'folder', dir: '/srv/idv/media' }
 * mediaStoreConfigFromEnv({ MEDIA_S3_BUCKET: 'idv', MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000' },
 *   '/srv/idv').kind; // 's3'
 */
export function mediaStoreConfigFromEnv(
  env: Record<string, string | undefined>,
  dataDir: string,
): MediaStoreConfig {
  const get = (name: string) => env[name]?.trim() || undefined;
  const bucket = get('MEDIA_S3_BUCKET');
  if (!bucket) {
    const stray = Object.keys(env).filter((k) => k.startsWith('MEDIA_S3_') && get(k));
    if (stray.length > 0) {
      throw new Error(
        `${stray.join(', ')} set without MEDIA_S3_BUCKET: set the bucket too, or unset them to keep media in DATA_DIR/media`,
      );
    }
    return { kind: 'folder', dir: join(dataDir, 'media') };
  }
  if (!BUCKET.test(bucket)) {
    throw new Error(
      `MEDIA_S3_BUCKET must be a bucket name (3 to 63 of [a-z0-9.-], starting and ending with a letter or digit; got ${JSON.stringify(bucket)})`,
    );
  }
  const endpoint = get('MEDIA_S3_ENDPOINT');
  if (endpoint !== undefined && !isHttpUrl(endpoint)) {
    throw new Error(`MEDIA_S3_ENDPOINT must be an http:// or https:// URL (got ${endpoint})`);
  }
  const pathStyle = get('MEDIA_S3_FORCE_PATH_STYLE');
  if (pathStyle !== undefined && pathStyle !== 'true' && pathStyle !== 'false') {
    throw new Error(`MEDIA_S3_FORCE_PATH_STYLE must be true or false (got ${pathStyle})`);
  }
  const prefix = get('MEDIA_S3_PREFIX');
  if (prefix !== undefined && !PREFIX.test(prefix)) {
    throw new Error(
      `MEDIA_S3_PREFIX must be folders of [a-z0-9_.-] ending in "/", like idv/ (got ${JSON.stringify(prefix)})`,
    );
  }
  const accessKeyId = get('AWS_ACCESS_KEY_ID');
  const secretAccessKey = get('AWS_SECRET_ACCESS_KEY');
  const sessionToken = get('AWS_SESSION_TOKEN');
  return {
    kind: 's3',
    options: {
      bucket,
      region: get('MEDIA_S3_REGION') ?? get('AWS_REGION') ?? 'us-east-1',
      forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === 'true',
      ...(endpoint ? { endpoint } : {}),
      ...(prefix ? { prefix } : {}),
      ...(accessKeyId && secretAccessKey
        ? {
            credentials: {
              accessKeyId,
              secretAccessKey,
              ...(sessionToken ? { sessionToken } : {}),
            },
          }
        : {}),
    },
  };
}

/**
 * The store a configuration names, and what to call when the service stops. A bucket is asked for
 * once here, so that a wrong name, endpoint or key pair stops the start rather than the first
 * upload. The AWS SDK is loaded only for a bucket: a service on its data folder never pays for it.
 *
 * @example
 * const media = await openMediaStore(mediaStoreConfigFromEnv(process.env, dataDir));
 * await media.store.put('sessions/sess_1/med_1.jpg', bytes, 'image/jpeg');
 * media.close();
 */
export async function openMediaStore(
  config: MediaStoreConfig,
): Promise<{ store: MediaStore; close(): void }> {
  if (config.kind === 'folder') return { store: createFsMediaStore(config.dir), close() {} };
  const { createS3MediaStore } = await import('./s3-store');
  const store = createS3MediaStore(config.options);
  try {
    await store.check();
  } catch (err) {
    store.close();
    throw err;
  }
  return { store, close: () => store.close() };
}

/**
 * Where media go, for the start-up line (credentials never appear).
 *
 * @example
 * describeMediaStore({ kind: 'folder', dir: '/srv/idv/media' }); // '/srv/idv/media'
 */
export function describeMediaStore(config: MediaStoreConfig): string {
  if (config.kind === 'folder') return config.dir;
  const { bucket, endpoint, prefix } = config.options;
  return `s3://${bucket}/${prefix ?? ''}${endpoint ? ` at ${endpoint}` : ''}`;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
