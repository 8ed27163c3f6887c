/**
 * The storage a process runs on, whichever database `DATABASE_URL` names: the core store, the job
 * queue and the webhook store, each with the same (promise) shape on SQLite and on PostgreSQL, so
 * the server, the workers and the `idv` commands need not know which.
 */
import type { Database } from 'better-sqlite3';
import { PG_SERVER_MIGRATIONS, SERVER_MIGRATIONS } from './features';
import { pgJobQueue } from './jobs/pg-queue';
import { sqliteJobQueue, type JobQueue } from './jobs/queue';
import type { DatabaseConfig } from './store/databaseUrl';
import { openPgStore, type PgSessionStore } from './store/pg/store';
import { promised, type Promised } from './store/promised';
import { openSqliteStore, type SqliteSessionStore, type SqliteStoreOptions } from './store/sqlite';
import type { SessionStore } from './store/types';
import { pgWebhookStore } from './webhooks/pg-store';
import { pgPlatformSettings } from './webhooks/pg-platform-settings';
import { sqlitePlatformSettings, type PlatformSettings } from './webhooks/platform-settings';
import { sqliteAccountSettings, type AccountSettings } from './session-analyses/account-settings';
import { pgAccountSettings } from './session-analyses/pg-account-settings';
import { createSqliteWebhookStore } from './webhooks/sqlite-store';
import type { WebhookStore } from './webhooks/store';

interface BackendBase {
  store: SessionStore;
  queue: Promised<JobQueue>;
  webhooks: Promised<WebhookStore>;
  accountSettings: AccountSettings;
  /** Avatars and languages, each change with its `settings.*` event. */
  platformSettings: PlatformSettings;
  close(): Promise<void>;
}

/** The data folder's SQLite file; its handle serves what has no PostgreSQL twin yet. */
export interface SqliteBackend extends BackendBase {
  kind: 'sqlite';
  store: SqliteSessionStore;
  sqlite: Database;
}

/** A PostgreSQL database shared by any number of instances and workers. */
export interface PgBackend extends BackendBase {
  kind: 'postgres';
  store: PgSessionStore;
}

export type Backend = SqliteBackend | PgBackend;

/**
 * Opens the database `database` names, with every table of the service migrated.
 *
 * @example
 * const backend = await openBackend(databaseFromEnv(process.env.DATABASE_URL, 'data'));
 * await backend.store.countAccounts();
 * await backend.close();
 */
export async function openBackend(
  database: DatabaseConfig,
  sqliteOptions: Omit<SqliteStoreOptions, 'path' | 'migrations'> = {},
): Promise<Backend> {
  if (database.kind === 'postgres') {
    const store = await openPgStore({ url: database.url, migrations: PG_SERVER_MIGRATIONS });
    return {
      kind: 'postgres',
      store,
      queue: pgJobQueue(store.pg),
      webhooks: pgWebhookStore(store.pg),
      accountSettings: pgAccountSettings(store.pg),
      platformSettings: pgPlatformSettings(store.pg),
      close: () => store.close(),
    };
  }
  const store = openSqliteStore({
    ...sqliteOptions,
    path: database.path,
    migrations: SERVER_MIGRATIONS,
  });
  return {
    kind: 'sqlite',
    store,
    queue: promised(sqliteJobQueue(store.db)),
    webhooks: promised(createSqliteWebhookStore(store.db)),
    accountSettings: sqliteAccountSettings(store.db),
    platformSettings: sqlitePlatformSettings(store.db),
    sqlite: store.db,
    close: () => store.close(),
  };
}
