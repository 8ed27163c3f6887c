import type { Database } from 'better-sqlite3';
import { LANGUAGES } from '../../core/api';
import { DEFAULT_AVATARS } from '../catalog/avatars';

/**
 * One schema change. Applied once, in order, inside a transaction, and recorded in the
 * `migrations` table. Ids must be unique across the project; prefix yours (`webhooks_0001_…`).
 */
export interface Migration {
  id: string;
  up(db: Database): void;
  /**
   * For a table rebuild (create, copy, drop, rename), which SQLite's `ALTER TABLE` cannot do in
   * place: foreign keys are off while it runs, as SQLite's own procedure asks, and checked before
   * its commit.
   */
  rebuildsTables?: boolean;
}

/**
 * The core's tables (accounts, keys, sessions, secrets, tokens, codes, events, catalog). A feature
 * with tables of its own exports its migrations; whoever opens a store for it lists them after
 * these (`SERVER_MIGRATIONS`), and the feature's constructor applies them too.
 */
export const CORE_MIGRATIONS: readonly Migration[] = [
  {
    id: 'core_0001_init',
    up(db) {
      db.exec(`
        CREATE TABLE accounts (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL REFERENCES accounts(id),
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          prefix TEXT NOT NULL,
          hash TEXT NOT NULL UNIQUE,
          created_at INTEGER NOT NULL,
          revoked_at INTEGER
        );
        CREATE INDEX api_keys_prefix ON api_keys(prefix);

        -- Flows are stored once, by the SHA-256 of their JSON: integrators send the same flow for
        -- thousands of sessions, and a session row then stays small.
        CREATE TABLE flows (
          hash TEXT PRIMARY KEY,
          flow TEXT NOT NULL
        ) WITHOUT ROWID;

        -- Clustered on the time-ordered id: new rows are appended at the end of the tree.
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL REFERENCES accounts(id),
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          status TEXT NOT NULL,
          status_rank INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          started_at INTEGER,
          finished_at INTEGER,
          finished_sort INTEGER NOT NULL DEFAULT 0,
          last_activity_at INTEGER NOT NULL,
          flow_id TEXT NOT NULL,
          flow_hash TEXT NOT NULL,
          client_reference_id TEXT,
          version TEXT NOT NULL,
          search_text TEXT NOT NULL,
          settings TEXT NOT NULL,
          report TEXT NOT NULL,
          position TEXT NOT NULL,
          rev INTEGER NOT NULL DEFAULT 0,
          -- The current client secret lives on the session: a refresh replaces it, so every
          -- earlier one is dead at once, and reading a session needs no second table.
          secret TEXT NOT NULL UNIQUE,
          secret_created_at INTEGER NOT NULL,
          secret_expire_at INTEGER NOT NULL,
          secret_used_at INTEGER
        ) WITHOUT ROWID;
        -- One index per sort order of GET /sessions, each ending in the keyset's tie-breakers.
        CREATE INDEX sessions_by_created ON sessions(account_id, mode, created_at, id);
        CREATE INDEX sessions_by_status ON sessions(account_id, mode, status_rank, created_at, id);
        CREATE INDEX sessions_by_finished ON sessions(account_id, mode, finished_sort, created_at, id);
        CREATE INDEX sessions_by_reference ON sessions(account_id, mode, client_reference_id, created_at, id);
        CREATE INDEX sessions_by_flow ON sessions(account_id, mode, flow_id, created_at, id);

        -- Secrets a refresh replaced, kept to tell "expired" and "used" from "never existed".
        CREATE TABLE retired_secrets (
          secret TEXT PRIMARY KEY,
          session_id TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expire_at INTEGER NOT NULL,
          used_at INTEGER,
          retired_at INTEGER NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE client_tokens (
          hash TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions(id),
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          revoked_at INTEGER
        );
        CREATE INDEX client_tokens_session ON client_tokens(session_id);

        CREATE TABLE otps (
          session_id TEXT NOT NULL REFERENCES sessions(id),
          node_id TEXT NOT NULL,
          channel TEXT NOT NULL,
          destination TEXT NOT NULL,
          code_hash TEXT NOT NULL,
          sent_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          attempts INTEGER NOT NULL,
          PRIMARY KEY (session_id, node_id)
        );

        -- The outbox: written in the same transaction as the change it reports.
        CREATE TABLE events (
          id TEXT PRIMARY KEY,
          account_id TEXT NOT NULL,
          mode TEXT NOT NULL,
          type TEXT NOT NULL,
          session_id TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          payload TEXT NOT NULL
        );

        CREATE TABLE avatars (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          gender TEXT NOT NULL,
          image_url TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE langs (
          id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          position INTEGER NOT NULL
        );
      `);
      const avatar = db.prepare(
        'INSERT INTO avatars (id, name, gender, image_url, created_at) VALUES (?, ?, ?, ?, ?)',
      );
      for (const a of DEFAULT_AVATARS) avatar.run(a.id, a.name, a.gender, a.imageUrl, a.createdAt);
      const lang = db.prepare('INSERT INTO langs (id, title, position) VALUES (?, ?, ?)');
      LANGUAGES.forEach((l, i) => lang.run(l.id, l.title, i));
    },
  },
  {
    // Two B-trees fewer for every create (about a fifth of the pages its commit writes):
    // - client secrets carry their session's id (`clientSecret`), so a secret is found by the
    //   session's primary key and needs no unique index; the secrets made before this migration
    //   carry none and keep a partial index of their own, which new sessions never enter;
    // - `sessions_by_finished` holds finished sessions only; the unfinished ones, whose sort value
    //   is 0, are read from `sessions_by_status` (see `listSessions`).
    id: 'core_0002_sessions_lean_indexes',
    rebuildsTables: true,
    up(db) {
      const schema = (type: string) =>
        (
          db
            .prepare(
              `SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = 'sessions' AND sql IS NOT NULL`,
            )
            .all(type) as { name: string; sql: string }[]
        ).filter((r) => r.name !== 'sessions' && r.name !== 'sessions_by_finished');
      const indexes = schema('index');
      const triggers = schema('trigger');
      const table = (
        db
          .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sessions'`)
          .get() as {
          sql: string;
        }
      ).sql;
      const rebuilt = table
        .replace('CREATE TABLE sessions', 'CREATE TABLE sessions_rebuilt')
        .replace('secret TEXT NOT NULL UNIQUE', 'secret TEXT NOT NULL');
      if (!rebuilt.includes('sessions_rebuilt') || rebuilt.includes('UNIQUE')) {
        throw new Error('core_0002: the sessions table is not the one core_0001 made');
      }
      db.exec(rebuilt);
      db.exec('INSERT INTO sessions_rebuilt SELECT * FROM sessions');
      // Dropping the table drops its indexes and triggers too; they are made again below.
      db.exec('DROP TABLE sessions');
      db.exec('ALTER TABLE sessions_rebuilt RENAME TO sessions');
      for (const { sql } of [...indexes, ...triggers]) db.exec(sql);
      db.exec(`
        CREATE INDEX sessions_by_finished ON sessions(account_id, mode, finished_sort, created_at, id)
          WHERE status_rank >= 2;
        CREATE INDEX sessions_by_legacy_secret ON sessions(secret) WHERE instr(secret, '.') = 0;
      `);
    },
  },
  {
    // One row per code sent, for the caps on sends per node and per session and on the
    // destinations a page may choose (decisions.md, "Codes"). A code stored before counts as one
    // send; whether its destination was typed by the user is not known, so it is not counted.
    id: 'core_0003_otp_sends',
    up(db) {
      db.exec(`
        CREATE TABLE otp_sends (
          session_id TEXT NOT NULL REFERENCES sessions(id),
          node_id TEXT NOT NULL,
          destination TEXT NOT NULL,
          -- 1 when the page supplied the destination (the session knew none).
          chosen INTEGER NOT NULL,
          sent_at INTEGER NOT NULL
        );
        CREATE INDEX otp_sends_session ON otp_sends(session_id, node_id);
        INSERT INTO otp_sends (session_id, node_id, destination, chosen, sent_at)
          SELECT session_id, node_id, destination, 0, sent_at FROM otps;
      `);
    },
  },
  {
    // Continue on a phone (docs/client-api.md, "Continue on a phone"): one row per link offered,
    // by the SHA-256 of its code; a claim marks it and the tokens it moved the session away from.
    id: 'core_0004_handoffs',
    up(db) {
      db.exec(`
        CREATE TABLE handoffs (
          code_hash TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions(id),
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          claimed_at INTEGER,
          -- Set when a newer link replaced it before it was claimed.
          revoked_at INTEGER
        ) WITHOUT ROWID;
        CREATE INDEX handoffs_session ON handoffs(session_id, created_at);
        -- A token whose session went to a phone: it may still watch the session, not act on it.
        ALTER TABLE client_tokens ADD COLUMN moved_at INTEGER;
      `);
    },
  },
  {
    // The answers of creates made under an Idempotency-Key (docs/api.md, "Retrying a create
    // safely"). No foreign key to the session: the record is written before the session, so that
    // a concurrent retry finds it (see the route).
    id: 'core_0005_idempotency_keys',
    up(db) {
      db.exec(`
        CREATE TABLE idempotency_keys (
          account_id TEXT NOT NULL,
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          key TEXT NOT NULL,
          request_hash TEXT NOT NULL,
          session_id TEXT NOT NULL,
          status INTEGER NOT NULL,
          body TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          PRIMARY KEY (account_id, mode, key)
        ) WITHOUT ROWID;
        CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
      `);
    },
  },
  {
    // The finished sessions a session retention may erase (docs/lifecycle.md): noted by a
    // trigger in the transaction that ends them, whoever ends them, and removed when erased, so
    // the sweeper reads only those due, by one index, never the tombstones.
    id: 'core_0006_session_ends',
    up(db) {
      db.exec(`
        CREATE TABLE session_ends (
          session_id TEXT PRIMARY KEY,
          ended_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX session_ends_due ON session_ends (ended_at);
        -- An erasure deletes a session's replaced secrets (refreshes are rare: a small index).
        CREATE INDEX retired_secrets_session ON retired_secrets (session_id);
        CREATE TRIGGER session_ends_on_end AFTER UPDATE OF status ON sessions
        WHEN NEW.status IN ('complete', 'incomplete') AND OLD.status NOT IN ('complete', 'incomplete')
        BEGIN
          INSERT OR IGNORE INTO session_ends (session_id, ended_at)
          VALUES (NEW.id, COALESCE(NEW.finished_at, NEW.last_activity_at));
        END;
        INSERT INTO session_ends (session_id, ended_at)
          SELECT id, COALESCE(finished_at, last_activity_at) FROM sessions
          WHERE status IN ('complete', 'incomplete')
            AND json_extract(report, '$.erasedAt') IS NULL;
      `);
    },
  },
];

/**
 * Applies the migrations not yet recorded, each in its own transaction, and returns their ids.
 *
 * @example
 * runMigrations(db, CORE_MIGRATIONS); // ['core_0001_init', …] on a new file, [] afterwards
 */
export function runMigrations(db: Database, migrations: readonly Migration[]): string[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)',
  );
  const done = new Set(
    (db.prepare('SELECT id FROM migrations').all() as { id: string }[]).map((r) => r.id),
  );
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    // Outside a transaction only: inside one, SQLite ignores the pragma.
    const foreignKeys = m.rebuildsTables
      ? (db.pragma('foreign_keys', { simple: true }) as number)
      : 0;
    if (foreignKeys) db.pragma('foreign_keys = OFF');
    try {
      // IMMEDIATE: a CLI and the server opening the same new file must not both apply it.
      db.transaction(() => {
        const again = db.prepare('SELECT 1 FROM migrations WHERE id = ?').get(m.id);
        if (again) return;
        m.up(db);
        if (m.rebuildsTables && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
          throw new Error(`migration ${m.id} left rows whose foreign keys point nowhere`);
        }
        db.prepare('INSERT INTO migrations (id, applied_at) VALUES (?, ?)').run(m.id, Date.now());
        applied.push(m.id);
      }).immediate();
    } finally {
      if (foreignKeys) db.pragma('foreign_keys = ON');
    }
  }
  return applied;
}
