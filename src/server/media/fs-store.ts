/**
 * A `MediaStore` in a folder (`DATA_DIR/media`). Each object is a plain file at its key (a JPEG
 * opens in any viewer) with its content type in a dot-file beside it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { MediaKeyError, mediaKeyProblem } from './keys';
import type { MediaStore } from './types';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export { MediaKeyError };

/**
 * Opens (and creates when missing) a media folder.
 *
 * @example
 * const store = createFsMediaStore(join(dataDir, 'media'));
 * await store.put('sessions/sess_1/med_1.jpg', bytes, 'image/jpeg');
 * (await store.get('sessions/sess_1/med_1.jpg'))?.contentType; // 'image/jpeg'
 */
export function createFsMediaStore(dir: string): MediaStore & { readonly dir: string } {
  const root = resolve(dir);

  const pathOf = (key: string): string => {
    const problem = mediaKeyProblem(key);
    if (problem) throw new MediaKeyError(key, problem);
    const path = resolve(root, key);
    // The key rules already keep it inside; this holds even if they are loosened one day.
    const rel = relative(root, path);
    if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('..')) {
      throw new MediaKeyError(key, 'key leaves the media folder');
    }
    return path;
  };
  // Dot-names cannot be keys, so the note never collides with an object.
  const typeFileOf = (path: string) => join(dirname(path), `.${basename(path)}.type`);

  return {
    dir: root,

    async put(key, bytes, contentType) {
      const path = pathOf(key);
      const folder = dirname(path);
      await mkdir(folder, { recursive: true });
      // Content type first, then the bytes: a reader who finds the file also finds its type.
      await writeAtomically(typeFileOf(path), Buffer.from(contentType, 'utf8'));
      await writeAtomically(path, bytes);
      await syncFolder(folder);
    },

    async get(key) {
      const path = pathOf(key);
      let bytes: Buffer;
      try {
        bytes = await readFile(path);
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      let contentType = DEFAULT_CONTENT_TYPE;
      try {
        contentType = (await readFile(typeFileOf(path), 'utf8')) || DEFAULT_CONTENT_TYPE;
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      return { bytes, contentType };
    },

    async delete(key) {
      const path = pathOf(key);
      await rm(path, { force: true });
      await rm(typeFileOf(path), { force: true });
      // A session's folder goes with its last object; a folder still in use stays.
      let folder = dirname(path);
      while (folder !== root && folder.startsWith(root + sep)) {
        try {
          await rmdir(folder);
        } catch {
          break;
        }
        folder = dirname(folder);
      }
    },
  };
}

/**
 * Write to a temporary file in the same folder, flush it, then rename it over the target: a
 * rename within one file system is atomic, so readers see the old object, or the whole new one.
 */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = join(dirname(path), `.tmp-${randomBytes(8).toString('hex')}`);
  const handle = await open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Makes the renames themselves durable, so a crash after the record is written finds the file. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic.
  } finally {
    await handle.close();
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
