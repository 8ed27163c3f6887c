/**
 * The analyses' tables on PostgreSQL, in the shape SQLite's reached after `ANALYSES_MIGRATIONS`.
 * As there, a trigger on the core's `sessions` notes every session that ends, in the same
 * transaction as its status change, whichever instance ends it; it also `NOTIFY`s the instances
 * (at commit), so their scans look at once rather than at the next poll.
 */
import type { PgMigration } from '../store/pg/migrations';

/** The channel `NOTIFY`ed when sessions end (`AnalysesStore.watchEnded`). */
export const ANALYSES_CHANNEL = 'idv_analyses';

export const PG_ANALYSES_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_analyses_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE account_settings (
          account_id TEXT COLLATE "C" NOT NULL,
          name TEXT COLLATE "C" NOT NULL,
          value TEXT NOT NULL,
          updated_at BIGINT NOT NULL,
          PRIMARY KEY (account_id, name)
        );

        -- queued: 0 seen, 1 jobs queued, 2 nothing to analyse. video_done: frames refused after.
        CREATE TABLE session_analyses (
          session_id TEXT COLLATE "C" PRIMARY KEY,
          account_id TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL,
          status TEXT NOT NULL,
          ended_at BIGINT NOT NULL,
          queued INTEGER NOT NULL DEFAULT 0,
          video_done INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX session_analyses_new ON session_analyses (session_id) WHERE queued = 0;

        -- analysis: JSON FrameAnalysis, { error } when unreadable, NULL until analysed.
        CREATE TABLE video_frames (
          session_id TEXT COLLATE "C" NOT NULL,
          seq INTEGER NOT NULL,
          t DOUBLE PRECISION NOT NULL,
          media_id TEXT COLLATE "C" NOT NULL,
          received_at BIGINT NOT NULL,
          analysis TEXT,
          PRIMARY KEY (session_id, seq)
        );

        CREATE FUNCTION idv_analyses_on_end() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO session_analyses (session_id, account_id, mode, status, ended_at)
          VALUES (NEW.id, NEW.account_id, NEW.mode, NEW.status,
            COALESCE(NEW.finished_at, NEW.last_activity_at))
          ON CONFLICT (session_id) DO NOTHING;
          PERFORM pg_notify('${ANALYSES_CHANNEL}', '');
          RETURN NULL;
        END $$;
        CREATE TRIGGER session_analyses_on_end AFTER UPDATE OF status ON sessions
          FOR EACH ROW
          WHEN (NEW.status <> OLD.status AND NEW.status IN ('complete', 'incomplete'))
          EXECUTE FUNCTION idv_analyses_on_end();
      `);
    },
  },
];
