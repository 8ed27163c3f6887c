import type { SessionStore } from '../types';
import { connectPg, type Pg, type PgConnectOptions } from './client';
import { pgAccounts } from './accounts';
import { pgCatalog } from './catalog';
import { pgErasure, type PgErasure } from './erase';
import { pgEvents } from './events';
import { pgFlows } from './flows';
import { pgHandoffs } from './handoffs';
import { pgIdempotency } from './idempotency';
import { PG_CORE_MIGRATIONS, runPgMigrations, type PgMigration } from './migrations';
import { pgOtps } from './otps';
import { pgSecrets } from './secrets';
import { pgSessions } from './sessions';

export interface PgStoreOptions extends PgConnectOptions {
  /** `postgres://user:password@host:port/database` (`DATABASE_URL`). */
  url: string;
  /** Defaults to the core's. */
  migrations?: readonly PgMigration[];
}

/**
 * The `SessionStore` over PostgreSQL, with its pool: the tables of other features will live in
 * the same database, and their modules take the pool explicitly.
 */
export type PgSessionStore = SessionStore & {
  /** For migrations and the store modules of other features; nothing else speaks SQL. */
  readonly pg: Pg;
  /** Erasure's core part, for the data lifecycle's PostgreSQL side (`pgLifecycle`). */
  readonly erasure: PgErasure;
};

/**
 * Connects to PostgreSQL at `options.url`, applies the migrations not yet applied, and returns the
 * store: one module per concern, as the SQLite store has, each over the same pool. Any number of
 * instances may share the database; every method is one transaction.
 *
 * @example
 * const store = await openPgStore({ url: process.env.DATABASE_URL! });
 * await store.countAccounts(); // 0 on a new database
 */
export async function openPgStore(options: PgStoreOptions): Promise<PgSessionStore> {
  const pg = connectPg(options.url, options);
  try {
    await runPgMigrations(pg, options.migrations ?? PG_CORE_MIGRATIONS);
  } catch (err) {
    await pg.end({ timeout: 1 });
    throw err;
  }
  const flows = pgFlows();
  const events = pgEvents(pg);
  const sessions = pgSessions(pg, flows);
  return {
    pg,
    erasure: pgErasure(pg, sessions.rows),
    ...pgAccounts(pg),
    ...sessions.store,
    ...pgSecrets(pg, sessions.rows),
    ...pgHandoffs(pg, sessions.rows),
    ...pgOtps(pg),
    ...pgIdempotency(pg),
    appendEvent: events.appendEvent,
    listEvents: events.listEvents,
    ...pgCatalog(pg),
    async close() {
      await pg.end({ timeout: 5 });
    },
  };
}
