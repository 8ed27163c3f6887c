import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { sqliteAccounts } from './accounts';
import { sqliteCatalog } from './catalog';
import { startCheckpointer } from './checkpointer';
import { startCreateWriter } from './createWriter';
import { sqliteErasure } from './erase';
import { groupCommit } from './groupCommit';
import { sqliteEvents } from './events';
import { sqliteFlows } from './flows';
import { sqliteHandoffs } from './handoffs';
import { sqliteIdempotency } from './idempotency';
import { CORE_MIGRATIONS, runMigrations, type Migration } from './migrations';
import { sqliteOtps } from './otps';
import { watchOtherWriters } from './otherWriters';
import { sqliteSecrets } from './secrets';
import { sessionInserter, sqliteSessions } from './sessions';
import type { SessionErasureStore, SessionStore } from './types';

export interface SqliteStoreOptions {
  /** The database file; its folder is created when missing. */
  path: string;
  /**
   * `NORMAL` (default): in WAL mode a commit has been written to the WAL file by the kernel's
   * `write()` before it returns, so a killed process (`kill -9`) loses nothing it acknowledged;
   * only a power cut or kernel crash can lose the last commits before a checkpoint. `FULL` also
   * fsyncs every commit, for machines where that matters more than write speed.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Defaults to every registered migration. */
  migrations?: readonly Migration[];
  /** How long a write waits for another process (the CLI) holding the lock. */
  busyTimeoutMs?: number;
  /**
   * Checkpoint the WAL from a thread of its own (default); `false` leaves it to SQLite's
   * automatic checkpoint inside commits (short-lived processes such as the CLI).
   */
  backgroundCheckpoints?: boolean;
  /**
   * Insert new sessions from a thread of its own (default, like `backgroundCheckpoints`): the
   * insert and commit leave the event loop. `false` inserts them on the caller's thread.
   */
  createsOnThread?: boolean;
}

/**
 * The `SessionStore` over one SQLite file (WAL), shared safely by the server and the CLI, with
 * its database handle: the tables of other features (media, liveness, webhooks, …) live in the
 * same file, and their modules take the handle explicitly.
 */
export type SqliteSessionStore = SessionStore &
  SessionErasureStore & {
    /** For migrations and the store modules of other features; nothing else speaks SQL. */
    readonly db: Database;
  };

/**
 * Opens (and migrates) the SQLite store at `options.path`: one module per concern (accounts and
 * keys, sessions, secrets and tokens, phone hand-offs, one-time codes, events, idempotency keys,
 * catalog), each over the same handle.
 *
 * @example
 * const store = openSqliteStore({ path: 'data/idv.sqlite' });
 * await store.countAccounts(); // 0 on a new file
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteSessionStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new BetterSqlite3(options.path);
  db.pragma('journal_mode = WAL');
  // Checkpoints (each rewrites pages and fsyncs the database file) run on a thread of their own;
  // SQLite's automatic one, inside a commit, stays only as a safety net should that thread fall
  // far behind. The WAL is cut back to 64 MB after a checkpoint.
  const background = options.path !== ':memory:' && options.backgroundCheckpoints !== false;
  // Per connection: the create writer's connection gets the same.
  const pragmas = [
    `synchronous = ${options.synchronous ?? 'NORMAL'}`,
    `busy_timeout = ${options.busyTimeoutMs ?? 5000}`,
    'foreign_keys = ON',
    `wal_autocheckpoint = ${background ? 100_000 : 10_000}`,
    `journal_size_limit = ${64 * 1024 * 1024}`,
    'cache_size = -32768',
  ];
  for (const pragma of pragmas) db.pragma(pragma);
  runMigrations(db, options.migrations ?? CORE_MIGRATIONS);
  const onThread = options.path !== ':memory:' && (options.createsOnThread ?? background);
  const checkpointer = background ? startCheckpointer(options.path) : null;
  const commit = groupCommit({
    insert: sessionInserter(db),
    // Started on the first create: a short-lived process (the CLI) that creates none never pays.
    startWriter: onThread ? () => startCreateWriter({ path: options.path, pragmas }) : null,
  });
  const writers = watchOtherWriters(db);
  const events = sqliteEvents(db);
  const sessions = sqliteSessions(db, { flows: sqliteFlows(db), events, commit, writers });
  return {
    db,
    ...sqliteAccounts(db, writers),
    ...sessions.store,
    ...sqliteSecrets(db, sessions.rows),
    ...sqliteHandoffs(db, sessions.rows),
    ...sqliteOtps(db),
    ...sqliteIdempotency(db),
    appendEvent: events.appendEvent,
    listEvents: events.listEvents,
    ...sqliteCatalog(db),
    ...sqliteErasure(db, sessions.rows, events),
    async close() {
      await commit.stop();
      await checkpointer?.stop();
      if (db.open) db.close();
    },
  };
}
