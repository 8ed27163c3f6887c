/**
 * A `MediaStore` in an S3-compatible bucket (Amazon S3, MinIO, Ceph, Garage, R2…), for instances
 * on several machines that must all read what one of them wrote. Each object is one S3 object at
 * `prefix + key`, its content type in the object's `Content-Type`.
 *
 * Download URLs stay ours: the bucket is never handed out (no presigned S3 URLs), the media route
 * reads the bytes through this store after checking our own 15-minute signature. The bucket can
 * stay private and its credentials never leave the server.
 */
import { createHash } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { MediaKeyError, mediaKeyProblem } from './keys';
import type { MediaStore } from './types';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface S3MediaStoreOptions {
  bucket: string;
  /** Prepended to every key (`idv/` keeps one deployment's objects apart in a shared bucket). */
  prefix?: string;
  /** An S3-compatible server's URL (`http://127.0.0.1:9000`); unset, Amazon S3 of `region`. */
  endpoint?: string;
  region: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (most non-AWS servers). */
  forcePathStyle: boolean;
  /** Unset: the SDK's usual chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** A media store over a bucket, with its client to close at shutdown. */
export type S3MediaStore = MediaStore & {
  readonly bucket: string;
  readonly prefix: string;
  /** Asks the server for the bucket: throws, saying why, when it is missing or refused. */
  check(): Promise<void>;
  /** Closes the client's idle connections. */
  close(): void;
};

/**
 * Opens a bucket as a media store. Nothing is sent until the first call; a missing bucket or bad
 * credentials show up there as the server's error.
 *
 * @example
 * const store = createS3MediaStore({ bucket: 'idv-media', region: 'us-east-1',
 *   endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
 * await store.put('sessions/sess_1/med_1.jpg', bytes, 'image/jpeg');
 * (await store.get('sessions/sess_1/med_1.jpg'))?.contentType; // 'image/jpeg'
 */
export function createS3MediaStore(options: S3MediaStoreOptions): S3MediaStore {
  const config: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // S3-compatible servers that predate the SDK's default CRC32 checksums reject or mangle them;
    // integrity is kept with Content-MD5, which every S3 server checks (below).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A stalled bucket fails the request (and so the upload) instead of holding it forever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
  const client = new S3Client(config);
  const prefix = options.prefix ?? '';
  const { bucket } = options;

  const objectKey = (key: string): string => {
    const problem = mediaKeyProblem(key);
    if (problem) throw new MediaKeyError(key, problem);
    return prefix + key;
  };

  return {
    bucket,
    prefix,

    async put(key, bytes, contentType) {
      const Key = objectKey(key);
      // One PUT: S3 stores an object whole once its body has arrived and matched its MD5, or not
      // at all, so readers see the old object or the new one (never a part, never a gap).
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key,
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: contentType,
          ContentMD5: createHash('md5').update(bytes).digest('base64'),
        }),
      );
    },

    async get(key) {
      const Key = objectKey(key);
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        if (!res.Body) return null;
        const array = await res.Body.transformToByteArray();
        const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
        return { bytes, contentType: res.ContentType || DEFAULT_CONTENT_TYPE };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      // S3 answers 204 for a key that is not there: deleting twice is fine.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (err) {
        // HEAD answers carry no body: the status is all there is to say.
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata
          ?.httpStatusCode;
        const why =
          status === 404
            ? 'no such bucket'
            : status === 403 || status === 401
              ? 'access refused (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)'
              : String((err as Error).message || (err as Error).name || err);
        throw new Error(
          `media bucket ${bucket}${options.endpoint ? ` at ${options.endpoint}` : ''}: ${why}`,
          { cause: err },
        );
      }
    },

    close() {
      client.destroy();
    },
  };
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  // A missing bucket is a configuration error, not a missing object: it must not read as null.
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}
