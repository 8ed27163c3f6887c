/**
 * The two databases a feature's store contract suite runs against: a SQLite file and a throwaway
 * PostgreSQL cluster (`startPgCluster`). Each `open()` is another connection to the same database,
 * standing for another process (SQLite) or instance (PostgreSQL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { connectPg, type Pg } from '../store/pg/client';
import { runPgMigrations, type PgMigration } from '../store/pg/migrations';
import { startPgCluster, type PgCluster } from './pgCluster';

/** One database under test, a fresh one per test. */
export interface DbSubject<T> {
  name: 'SQLite' | 'PostgreSQL';
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A fresh, empty database. */
  fresh(): Promise<void>;
  /** The store under test on a new connection to the current database. */
  open(): Promise<T>;
  /** Closes every connection opened since `fresh` (a SQLite file is removed too). */
  close(): Promise<void>;
}

/**
 * A SQLite file per test, each connection a better-sqlite3 handle of its own (WAL, waiting on
 * the lock as the server's does); `make` applies the feature's migrations.
 *
 * @example
 * describe.each([sqliteSubject(sqliteMediaRecords), pgSubject(PG_MEDIA_MIGRATIONS, pgMediaRecords)])
 */
export function sqliteSubject<T>(make: (db: Database.Database) => T): DbSubject<T> {
  let dir = '';
  const handles: Database.Database[] = [];
  return {
    name: 'SQLite',
    async setup() {},
    async teardown() {},
    async fresh() {
      dir = mkdtempSync(join(tmpdir(), 'idv-contract-'));
    },
    async open() {
      const db = new Database(join(dir, 'db.sqlite'));
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      handles.push(db);
      return make(db);
    },
    async close() {
      for (const db of handles.splice(0)) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A database per test in one throwaway cluster, each connection a pool of its own that applies
 * `migrations` (under their advisory lock, as every instance does when it starts).
 *
 * @example
 * const subject = pgSubject(PG_MEDIA_MIGRATIONS, pgMediaRecords);
 */
export function pgSubject<T>(
  migrations: readonly PgMigration[],
  make: (pg: Pg) => T,
): DbSubject<T> {
  let cluster: PgCluster | null = null;
  let url = '';
  const pools: Pg[] = [];
  return {
    name: 'PostgreSQL',
    async setup() {
      cluster = await startPgCluster();
    },
    async teardown() {
      await cluster?.stop();
    },
    async fresh() {
      if (!cluster) throw new Error('no cluster');
      url = await cluster.newDatabase();
    },
    async open() {
      const pg = connectPg(url, { max: 4 });
      pools.push(pg);
      await runPgMigrations(pg, migrations);
      return make(pg);
    },
    async close() {
      for (const pg of pools.splice(0)) await pg.end({ timeout: 1 });
    },
  };
}
