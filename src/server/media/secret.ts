/**
 * The media signing secret, kept in `DATA_DIR/media-signing.key` so that URLs handed out before a
 * restart keep working after it.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file name under the data folder. */
export const MEDIA_SECRET_FILE = 'media-signing.key';
/** 256 bits, the HMAC-SHA256 block-size-friendly length. */
export const MEDIA_SECRET_BYTES = 32;

/**
 * Reads the secret, or makes it (32 random bytes, file mode 0600) the first time. Two processes
 * starting together agree on one secret: the file is created whole under a temporary name and
 * hard-linked into place, which fails for the loser, who then reads the winner's.
 *
 * @example
 * const secret = loadOrCreateMediaSecret(dataDir);
 * secret.length; // 32
 */
export function loadOrCreateMediaSecret(dataDir: string): Buffer {
  const path = join(dataDir, MEDIA_SECRET_FILE);
  const existing = readSecret(path);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const tmp = join(dataDir, `.${MEDIA_SECRET_FILE}.${randomBytes(8).toString('hex')}`);
  writeFileSync(tmp, randomBytes(MEDIA_SECRET_BYTES), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  const secret = readSecret(path);
  if (!secret) throw new Error(`${path} vanished while it was being created`);
  return secret;
}

function readSecret(path: string): Buffer | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
  if (bytes.length !== MEDIA_SECRET_BYTES) {
    throw new Error(
      `${path} holds ${bytes.length} bytes, not ${MEDIA_SECRET_BYTES}: it is not a media signing ` +
        'key. Restore it from a backup, or delete it to make a new one (older media URLs then stop working).',
    );
  }
  return bytes;
}
