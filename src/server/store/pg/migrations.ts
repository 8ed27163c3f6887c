import { LANGUAGES } from '../../../core/api';
import { DEFAULT_AVATARS } from '../../catalog/avatars';
import type { PgQuery, Pg, PgTx } from './client';

/** The channel `NOTIFY`ed when outbox rows are committed (`watchOutbox`). */
export const OUTBOX_CHANNEL = 'idv_outbox';

/**
 * One schema change on PostgreSQL, as `Migration` is on SQLite: applied once, in order, inside a
 * transaction, and recorded in the `migrations` table. Ids are unique across the project.
 */
export interface PgMigration {
  id: string;
  up(tx: PgTx): Promise<void>;
}

/**
 * The core's tables on PostgreSQL, in the shape SQLite's reached after its own migrations
 * (core_0001 to core_0004; idempotency keys as core_0005): a new database starts there. Every key and sort column compares
 * bytes (`COLLATE "C"`), as SQLite does, so pages come in the same order whatever the server's
 * locale. Times are milliseconds (`bigint`); JSON is kept as the text written, key order
 * included (webhook payloads are signed byte for byte).
 */
export const PG_CORE_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_core_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE accounts (
          id TEXT COLLATE "C" PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE api_keys (
          id TEXT COLLATE "C" PRIMARY KEY,
          account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id),
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          prefix TEXT COLLATE "C" NOT NULL,
          hash TEXT NOT NULL UNIQUE,
          created_at BIGINT NOT NULL,
          revoked_at BIGINT
        );
        CREATE INDEX api_keys_prefix ON api_keys(prefix text_pattern_ops);

        CREATE TABLE flows (
          hash TEXT COLLATE "C" PRIMARY KEY,
          flow TEXT NOT NULL
        );

        CREATE TABLE sessions (
          id TEXT COLLATE "C" PRIMARY KEY,
          account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id),
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          status TEXT NOT NULL,
          status_rank INTEGER NOT NULL,
          created_at BIGINT NOT NULL,
          started_at BIGINT,
          finished_at BIGINT,
          finished_sort BIGINT NOT NULL DEFAULT 0,
          last_activity_at BIGINT NOT NULL,
          flow_id TEXT COLLATE "C" NOT NULL,
          flow_hash TEXT COLLATE "C" NOT NULL,
          client_reference_id TEXT COLLATE "C",
          version TEXT NOT NULL,
          search_text TEXT NOT NULL,
          settings TEXT NOT NULL,
          report TEXT NOT NULL,
          position TEXT NOT NULL,
          rev INTEGER NOT NULL DEFAULT 0,
          secret TEXT COLLATE "C" NOT NULL,
          secret_created_at BIGINT NOT NULL,
          secret_expire_at BIGINT NOT NULL,
          secret_used_at BIGINT
        );
        -- One index per sort order of GET /sessions, each ending in the keyset's tie-breakers.
        CREATE INDEX sessions_by_created ON sessions(account_id, mode, created_at, id);
        CREATE INDEX sessions_by_status ON sessions(account_id, mode, status_rank, created_at, id);
        CREATE INDEX sessions_by_finished ON sessions(account_id, mode, finished_sort, created_at, id);
        CREATE INDEX sessions_by_reference ON sessions(account_id, mode, client_reference_id, created_at, id);
        CREATE INDEX sessions_by_flow ON sessions(account_id, mode, flow_id, created_at, id);
        -- The sweeper's two questions: unopened since, and idle since.
        CREATE INDEX sessions_unopened ON sessions(created_at) WHERE status_rank = 0;
        CREATE INDEX sessions_open ON sessions(last_activity_at) WHERE status_rank = 1;
        -- Secrets that do not name their session (made by hand, or imported from an old SQLite
        -- file): found by their own index, which new sessions never enter.
        CREATE INDEX sessions_by_legacy_secret ON sessions(secret) WHERE strpos(secret, '.') = 0;

        CREATE TABLE retired_secrets (
          secret TEXT COLLATE "C" PRIMARY KEY,
          session_id TEXT COLLATE "C" NOT NULL,
          created_at BIGINT NOT NULL,
          expire_at BIGINT NOT NULL,
          used_at BIGINT,
          retired_at BIGINT NOT NULL
        );

        CREATE TABLE client_tokens (
          hash TEXT COLLATE "C" PRIMARY KEY,
          session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions(id),
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          revoked_at BIGINT,
          moved_at BIGINT
        );
        CREATE INDEX client_tokens_session ON client_tokens(session_id);

        CREATE TABLE otps (
          session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions(id),
          node_id TEXT COLLATE "C" NOT NULL,
          channel TEXT NOT NULL,
          destination TEXT NOT NULL,
          code_hash TEXT NOT NULL,
          sent_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          attempts INTEGER NOT NULL,
          PRIMARY KEY (session_id, node_id)
        );
        CREATE TABLE otp_sends (
          session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions(id),
          node_id TEXT COLLATE "C" NOT NULL,
          destination TEXT NOT NULL,
          chosen BOOLEAN NOT NULL,
          sent_at BIGINT NOT NULL
        );
        CREATE INDEX otp_sends_session ON otp_sends(session_id, node_id);

        CREATE TABLE handoffs (
          code_hash TEXT COLLATE "C" PRIMARY KEY,
          session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions(id),
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          claimed_at BIGINT,
          revoked_at BIGINT
        );
        CREATE INDEX handoffs_session ON handoffs(session_id, created_at);

        -- The outbox: written in the same transaction as the change it reports. \`seq\` is the
        -- order of writing (not of commit: readers that follow it as a cursor must allow for that).
        CREATE TABLE events (
          seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id TEXT COLLATE "C" NOT NULL UNIQUE,
          account_id TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL,
          type TEXT NOT NULL,
          session_id TEXT COLLATE "C" NOT NULL,
          created_at BIGINT NOT NULL,
          payload TEXT NOT NULL
        );
        CREATE INDEX events_session ON events(session_id, seq);

        CREATE TABLE avatars (
          id TEXT COLLATE "C" PRIMARY KEY,
          name TEXT NOT NULL,
          gender TEXT NOT NULL,
          image_url TEXT NOT NULL,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE langs (
          id TEXT COLLATE "C" PRIMARY KEY,
          title TEXT NOT NULL,
          position INTEGER NOT NULL
        );
      `);
      for (const a of DEFAULT_AVATARS) {
        await tx`INSERT INTO avatars (id, name, gender, image_url, created_at)
          VALUES (${a.id}, ${a.name}, ${a.gender}, ${a.imageUrl}, ${a.createdAt})`;
      }
      for (const [i, l] of LANGUAGES.entries()) {
        await tx`INSERT INTO langs (id, title, position) VALUES (${l.id}, ${l.title}, ${i})`;
      }
    },
  },
  {
    // New outbox rows wake whoever delivers them, in every instance, at commit (a rolled-back
    // change wakes nobody). One notice per statement; PostgreSQL folds a transaction's equal
    // notices into one, so a burst of events costs one wake-up.
    id: 'pg_core_0002_outbox_notify',
    async up(tx) {
      await tx.unsafe(`
        CREATE FUNCTION idv_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('${OUTBOX_CHANNEL}', '');
          RETURN NULL;
        END $$;
        CREATE TRIGGER events_notify AFTER INSERT ON events
          FOR EACH STATEMENT EXECUTE FUNCTION idv_outbox_notify();
      `);
    },
  },
  {
    // The answers of creates made under an Idempotency-Key (docs/api.md, "Retrying a create
    // safely"), as core_0005 keeps them on SQLite. No foreign key to the session: the record is
    // written before the session, so that a concurrent retry finds it.
    id: 'pg_core_0003_idempotency_keys',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE idempotency_keys (
          account_id TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
          key TEXT COLLATE "C" NOT NULL,
          request_hash TEXT NOT NULL,
          session_id TEXT COLLATE "C" NOT NULL,
          status INTEGER NOT NULL,
          body TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          PRIMARY KEY (account_id, mode, key)
        );
        CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
      `);
    },
  },
  {
    // As SQLite's core_0006: the finished sessions a session retention may erase
    // (docs/lifecycle.md), noted by a trigger in the transaction that ends them, whoever ends
    // them, and removed when erased, so the sweeper reads only those due, by one index.
    id: 'pg_core_0004_session_ends',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE session_ends (
          session_id TEXT COLLATE "C" PRIMARY KEY,
          ended_at BIGINT NOT NULL
        );
        CREATE INDEX session_ends_due ON session_ends (ended_at);
        -- An erasure deletes a session's replaced secrets (refreshes are rare: a small index).
        CREATE INDEX retired_secrets_session ON retired_secrets (session_id);
        CREATE FUNCTION idv_session_ends_on_end() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO session_ends (session_id, ended_at)
          VALUES (NEW.id, COALESCE(NEW.finished_at, NEW.last_activity_at))
          ON CONFLICT (session_id) DO NOTHING;
          RETURN NULL;
        END $$;
        CREATE TRIGGER session_ends_on_end AFTER UPDATE OF status ON sessions
          FOR EACH ROW
          WHEN (NEW.status IN ('complete', 'incomplete')
            AND OLD.status NOT IN ('complete', 'incomplete'))
          EXECUTE FUNCTION idv_session_ends_on_end();
        INSERT INTO session_ends (session_id, ended_at)
          SELECT id, COALESCE(finished_at, last_activity_at) FROM sessions
          WHERE status IN ('complete', 'incomplete') AND report::json->'erasedAt' IS NULL;
      `);
    },
  },
];

/** Any number, the same in every instance: the key of the advisory lock migrations hold. */
const MIGRATION_LOCK = 7_316_001;

/**
 * Applies the migrations not yet recorded, each in its own transaction, and returns their ids.
 * Instances starting together wait on one advisory lock: one applies, the others find it done.
 *
 * @example
 * await runPgMigrations(pg, PG_CORE_MIGRATIONS); // ['pg_core_0001_init'] on a new database
 */
export async function runPgMigrations(
  pg: Pg,
  migrations: readonly PgMigration[],
): Promise<string[]> {
  const applied: string[] = [];
  await pg.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`;
  });
  for (const m of migrations) {
    await pg.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      if (await isApplied(tx, m.id)) return;
      await m.up(tx);
      await tx`INSERT INTO migrations (id, applied_at) VALUES (${m.id}, ${Date.now()})`;
      applied.push(m.id);
    });
  }
  return applied;
}

async function isApplied(q: PgQuery, id: string): Promise<boolean> {
  return (await q`SELECT 1 FROM migrations WHERE id = ${id}`).length > 0;
}
