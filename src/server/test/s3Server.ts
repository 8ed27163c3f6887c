import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';

/** s3rver's fixed key pair: it checks request signatures against it. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** An S3-compatible server on loopback, in-process, for tests and benchmarks. */
export interface S3TestServer {
  /** `http://127.0.0.1:PORT`. */
  endpoint: string;
  /** The keys of the objects in a bucket, sorted (read from s3rver's folder, not through S3). */
  keys(bucket: string): string[];
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** How s3rver names an object's file: `name._S3rver_object` in the key's folders. */
const OBJECT_SUFFIX = '._S3rver_object';

type Store = {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  getObject(
    bucket: string,
    key: string,
    options: unknown,
  ): Promise<{ content?: Readable | null } | null>;
  deleteObject(bucket: string, key: string): Promise<void>;
};

/**
 * Starts s3rver on a free loopback port with `buckets` made, its objects in a new temporary folder.
 *
 * s3rver writes an object in place and answers a GET with a stream of the file, so a reader can
 * see an object half-replaced, which Amazon S3 never shows ("S3 never adds partial objects"). The
 * store's behaviour test asserts that guarantee, so here each object's reads and writes take
 * turns, and a PUT is on disk in full before it is answered: the server then behaves as S3 says
 * it does, and what the test checks is the client (one whole PUT, one whole GET, no gap).
 *
 * @example
 * const s3 = await startS3Server(['idv-media']);
 * createS3MediaStore({ bucket: 'idv-media', endpoint: s3.endpoint, … });
 * await s3.stop();
 */
export async function startS3Server(buckets: string[]): Promise<S3TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  makeObjectsWhole(server.store as unknown as Store);
  let address;
  try {
    address = await server.run();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    keys(bucket) {
      const root = join(dir, bucket);
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile() && d.name.endsWith(OBJECT_SUFFIX))
        .map((d) => join(d.parentPath, d.name).slice(root.length + 1, -OBJECT_SUFFIX.length))
        .sort();
    },
    async stop() {
      try {
        await server.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function makeObjectsWhole(store: Store): void {
  const turns = new Map<string, Promise<unknown>>();
  /** Runs `work` after the calls on the same object already queued. */
  const inTurn = <T>(bucket: string, key: string, work: () => Promise<T>): Promise<T> => {
    const id = `${bucket}/${key}`;
    const next = (turns.get(id) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => {});
    turns.set(id, settled);
    void settled.then(() => {
      if (turns.get(id) === settled) turns.delete(id);
    });
    return next;
  };

  const getObject = store.getObject.bind(store);
  const deleteObject = store.deleteObject.bind(store);

  Object.assign(store, {
    async putObject(object: {
      bucket: string;
      key: string;
      metadata: unknown;
      content: Buffer | Readable;
    }) {
      const bytes = Buffer.isBuffer(object.content)
        ? object.content
        : Buffer.concat(await object.content.toArray());
      const md5 = createHash('md5').update(bytes).digest('hex');
      return inTurn(object.bucket, object.key, async () => {
        const path = store.getResourcePath(object.bucket, object.key, 'object');
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, bytes);
        await store.putMetadata(object.bucket, object.key, object.metadata, md5);
        return { size: bytes.length, md5 };
      });
    },
    getObject(bucket: string, key: string, options: unknown) {
      return inTurn(bucket, key, async () => {
        const object = await getObject(bucket, key, options);
        if (object?.content) {
          object.content = Readable.from([Buffer.concat(await object.content.toArray())]);
        }
        return object;
      });
    },
    deleteObject(bucket: string, key: string) {
      return inTurn(bucket, key, () => deleteObject(bucket, key));
    },
  });
}
