/**
 * The data lifecycle on PostgreSQL: an erasure is one PostgreSQL transaction over the core's and
 * every feature's tables (media records, liveness, analyses, faces), as it is one SQLite
 * transaction on the file; the retention reads the same tables by the same indexes.
 */
import type { PgSessionStore } from '../store/pg/store';
import type { PgQuery } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
import type { LifecycleStore } from './lifecycle-store';
import { DAY_MS } from './retention';

/**
 * `delete_after` of a medium (`media` names its row): its creation plus the consent days its
 * session names, in whole days as SQLite's CAST reads them; NULL when the session names none.
 */
const consentDeadline = (media: string) => `${media}.created_at + ${DAY_MS} * (SELECT CASE
    WHEN json_typeof(s.settings::json #> '{customization,consent,retentionDays}') = 'number'
    THEN trunc((s.settings::json #>> '{customization,consent,retentionDays}')::numeric)::bigint
  END FROM sessions s WHERE s.id = ${media}.session_id)`;

/**
 * As SQLite's `lifecycle_0001`: when a medium is due under its session's
 * `customization.consent.retentionDays`, set as it is stored, in its insert's transaction.
 * After the core's and the media's migrations (the tables it reads).
 */
export const PG_LIFECYCLE_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_lifecycle_0001_consent_retention',
    async up(tx) {
      await tx.unsafe(`
        ALTER TABLE media ADD COLUMN delete_after BIGINT;
        CREATE INDEX media_delete_after ON media (delete_after) WHERE delete_after IS NOT NULL;
        CREATE FUNCTION idv_media_consent_retention() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.delete_after := ${consentDeadline('NEW')};
          RETURN NEW;
        END $$;
        CREATE TRIGGER media_consent_retention BEFORE INSERT ON media
          FOR EACH ROW EXECUTE FUNCTION idv_media_consent_retention();
        UPDATE media SET delete_after = ${consentDeadline('media')};
      `);
    },
  },
];

/** Deletes media records on `q`, their keys queued for `purgeDeleted`; how many went. */
async function forgetRows(q: PgQuery, ids: readonly string[], now: number): Promise<number> {
  if (ids.length === 0) return 0;
  const list = [...ids];
  await q`DELETE FROM face_media_embeddings WHERE media_id = ANY(${list}::text[])`;
  const gone = await q<{ storage_key: string }[]>`DELETE FROM media
    WHERE id = ANY(${list}::text[]) RETURNING storage_key`;
  if (gone.length > 0) {
    const keys = gone.map((r) => r.storage_key);
    await q`INSERT INTO media_deletions (storage_key, queued_at)
      SELECT unnest(${keys}::text[]), ${now} ON CONFLICT (storage_key) DO NOTHING`;
  }
  return gone.length;
}

/**
 * The lifecycle over a PostgreSQL store whose database holds every table of the service
 * (`PG_SERVER_MIGRATIONS`).
 *
 * @example
 * const eraser = createSessionEraser({ lifecycle: pgLifecycle(store), media, clock });
 */
export function pgLifecycle(store: Pick<PgSessionStore, 'pg' | 'erasure'>): LifecycleStore {
  const { pg, erasure } = store;
  return {
    eraseSession(input) {
      return erasure.eraseSession({
        ...input,
        async alsoErase(tx, tomb) {
          const id = tomb.id;
          const media = await tx<{ id: string }[]>`SELECT id FROM media WHERE session_id = ${id}`;
          await forgetRows(
            tx,
            media.map((m) => m.id),
            input.now,
          );
          await tx`DELETE FROM face_known WHERE session_id = ${id}`;
          await tx`DELETE FROM face_enroll_pending WHERE session_id = ${id}`;
          await tx`DELETE FROM liveness_frames
            WHERE attempt_id IN (SELECT a.id FROM liveness_attempts a WHERE a.session_id = ${id})`;
          await tx`DELETE FROM liveness_attempts WHERE session_id = ${id}`;
          await tx`DELETE FROM video_frames WHERE session_id = ${id}`;
          // Its jobs, already queued, find a tombstone and do nothing; none is queued any more.
          await tx`DELETE FROM session_analyses WHERE session_id = ${id}`;
        },
      });
    },
    listEndedBefore: (endedBefore, limit) => erasure.listEndedBefore(endedBefore, limit),
    forgetMedia(ids, now) {
      return pg.begin((tx) => forgetRows(tx, ids, now));
    },
    async mediaOlderThan(kind, createdBefore, limit) {
      const rows = await pg<{ id: string }[]>`SELECT id FROM media
        WHERE kind = ${kind} AND created_at < ${createdBefore} ORDER BY created_at LIMIT ${limit}`;
      return rows.map((r) => r.id);
    },
    async consentDue(now, limit) {
      const rows = await pg<{ id: string }[]>`SELECT id FROM media
        WHERE delete_after <= ${now} ORDER BY delete_after LIMIT ${limit}`;
      return rows.map((r) => r.id);
    },
  };
}
