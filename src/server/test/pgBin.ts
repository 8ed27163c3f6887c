import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folder of PostgreSQL's server binaries (`initdb`, `pg_ctl`): the one on `PATH`, else the
 * newest of Debian's `/usr/lib/postgresql/N/bin`; null when neither is there.
 *
 * @example
 * pgBinDir(); // '/usr/lib/postgresql/15/bin'
 */
export function pgBinDir(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}
