import { join } from 'node:path';

/** Where the service keeps its data: a SQLite file (the default) or a PostgreSQL database. */
export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/**
 * The database `DATABASE_URL` names: unset or empty, the SQLite file `DATA_DIR/idv.sqlite`;
 * `postgres://…` or `postgresql://…`, that PostgreSQL database. Anything else is refused, so a
 * typo never falls back to an empty SQLite file.
 *
 * @example
 * databaseFromEnv(undefined, '/srv/idv'); // { kind: 'sqlite', path: '/srv/idv/idv.sqlite' }
 * databaseFromEnv('postgres://idv@db/idv', '/srv/idv').kind; // 'postgres'
 */
export function databaseFromEnv(url: string | undefined, dataDir: string): DatabaseConfig {
  if (url === undefined || url.trim() === '') {
    return { kind: 'sqlite', path: join(dataDir, 'idv.sqlite') };
  }
  if (/^postgres(ql)?:\/\/./.test(url.trim())) return { kind: 'postgres', url: url.trim() };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new Error(
    `DATABASE_URL must be a postgres:// URL, or unset for SQLite in DATA_DIR (got ${scheme ? `a ${scheme}: URL` : 'no URL'})`,
  );
}

/**
 * Why a command that reads the SQLite file itself (`CliContext.openStore`) refuses PostgreSQL;
 * every `idv` command runs on either database today, through `openBackend`.
 */
export const POSTGRES_NOT_SERVED_YET =
  'DATABASE_URL names PostgreSQL, and this command works on the SQLite file only. Unset ' +
  'DATABASE_URL to run it on DATA_DIR/idv.sqlite.';
