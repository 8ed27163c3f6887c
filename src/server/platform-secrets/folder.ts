/**
 * Platform secrets as files in the data folder (`DATA_DIR/NAME.key`, mode 0600), for a service
 * on SQLite: one machine, one folder, so the file is the shared place.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSecretName, type PlatformSecrets } from './types';

/**
 * Secrets in `dataDir`. Two processes starting together agree: a new secret is written whole
 * under a temporary name and hard-linked into place, which fails for the loser, who then reads
 * the winner's.
 *
 * @example
 * const secrets = folderSecrets('/srv/idv');
 * await secrets.keep('media-signing', randomBytes(32)); // the bytes of /srv/idv/media-signing.key
 */
export function folderSecrets(dataDir: string): PlatformSecrets {
  const pathOf = (name: string) => {
    checkSecretName(name);
    return join(dataDir, `${name}.key`);
  };
  return {
    whereIs: pathOf,
    async keep(name, candidate) {
      const path = pathOf(name);
      const existing = readIfThere(path);
      if (existing) return existing;
      mkdirSync(dataDir, { recursive: true });
      const tmp = join(dataDir, `.${name}.key.${randomBytes(8).toString('hex')}`);
      writeFileSync(tmp, candidate, { mode: 0o600, flag: 'wx' });
      try {
        linkSync(tmp, path);
      } catch (err) {
        if ((err as { code?: string }).code !== 'EEXIST') throw err;
      } finally {
        rmSync(tmp, { force: true });
      }
      const kept = readIfThere(path);
      if (!kept) throw new Error(`${path} vanished while it was being created`);
      return kept;
    },
  };
}

function readIfThere(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
}
