/**
 * The media signing secret, one for every instance and kept across restarts so that URLs handed
 * out before keep working after: `DATA_DIR/media-signing.key` beside SQLite, a row of
 * `platform_secrets` on PostgreSQL (`PlatformSecrets`).
 */
import { randomBytes } from 'node:crypto';
import type { PlatformSecrets } from '../platform-secrets/types';

/** The secret's name among the platform's (in a data folder: the file `media-signing.key`). */
export const MEDIA_SECRET_NAME = 'media-signing';
/** The file name under the data folder. */
export const MEDIA_SECRET_FILE = `${MEDIA_SECRET_NAME}.key`;
/** 256 bits, the HMAC-SHA256 block-size-friendly length. */
export const MEDIA_SECRET_BYTES = 32;

/**
 * Reads the secret, or makes it (32 random bytes) the first time. Instances starting together
 * agree on one: the store keeps the first made and gives it to all.
 *
 * @example
 * const secret = await loadOrCreateMediaSecret(folderSecrets(dataDir));
 * secret.length; // 32
 */
export async function loadOrCreateMediaSecret(secrets: PlatformSecrets): Promise<Buffer> {
  const secret = await secrets.keep(MEDIA_SECRET_NAME, randomBytes(MEDIA_SECRET_BYTES));
  if (secret.length !== MEDIA_SECRET_BYTES) {
    throw new Error(
      `${secrets.whereIs(MEDIA_SECRET_NAME)} holds ${secret.length} bytes, not ${MEDIA_SECRET_BYTES}: ` +
        'it is not a media signing key. Restore it from a backup, or delete it to make a new one ' +
        '(older media URLs then stop working).',
    );
  }
  return secret;
}
