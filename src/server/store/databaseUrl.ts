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
 * Why the server and the commands do not start on PostgreSQL yet: the core store, the job queue
 * and the webhook store are there, but the features' tables (media, liveness, analyses, faces)
 * and their triggers on the core's tables still live in SQLite, and half the data in each would
 * lose analyses without a word.
 */
export const POSTGRES_NOT_SERVED_YET =
  'DATABASE_URL names PostgreSQL, whose store holds the core (accounts, keys, sessions, secrets, ' +
  'hand-offs, codes, idempotency keys, events, catalog), the job queue and the webhook store, but ' +
  'not yet media, liveness, analyses and faces, and the workers do not run over it: the service ' +
  'does not start half on each. Unset DATABASE_URL to run on DATA_DIR/idv.sqlite.';
