/**
 * The data lifecycle over the store's SQLite file: erasure and retention in one SQLite
 * transaction over the core's and every feature's tables.
 */
import type { Database } from 'better-sqlite3';
import { FACE_MIGRATIONS, sqliteFaceForget, type FaceStore } from '../faces/face-store';
import { LIVENESS_MIGRATIONS, sqliteAttemptForget } from '../liveness/attempt-store';
import { sqliteMediaForget } from '../media/forget';
import { MEDIA_MIGRATIONS } from '../media/migrations';
import type { MediaService } from '../media/types';
import { sqliteAnalysesForget } from '../session-analyses/forget';
import { ANALYSES_MIGRATIONS } from '../session-analyses/migrations';
import { runMigrations } from '../store/migrations';
import type { SessionErasureStore } from '../store/types';
import type { LifecycleStore } from './lifecycle-store';
import { LIFECYCLE_MIGRATIONS } from './migrations';

export interface SqliteLifecycleDeps {
  /** The core store over `db` (`openSqliteStore`). */
  store: SessionErasureStore;
  db: Database;
  /** Whose records go after the commit when they live outside the file (`externalMedia`). */
  media?: Pick<MediaService, 'deleteForSession'>;
  /**
   * Whose cached embeddings of forgotten media go after a retention's commit; default: the
   * file's face tables.
   */
  faces?: Pick<FaceStore, 'forgetMedia'>;
  /**
   * True when media records live outside the SQLite file: the session's media are then deleted
   * right after the commit (`deleteForSession`), not inside the transaction.
   */
  externalMedia?: boolean;
  /**
   * A face store outside the SQLite file: its part of an erasure runs right after the commit.
   * Default: the SQLite tables, inside the transaction.
   */
  faceStore?: FaceStore;
  /** True when the analyses' tables are outside the SQLite file: their rows are then left. */
  externalAnalyses?: boolean;
}

/**
 * The lifecycle over a store's SQLite file (its migrations applied here).
 *
 * @example
 * const lifecycle = sqliteLifecycle({ store, db: store.db });
 * const eraser = createSessionEraser({ lifecycle, media, clock });
 */
export function sqliteLifecycle(deps: SqliteLifecycleDeps): LifecycleStore {
  const { db } = deps;
  runMigrations(db, [
    ...MEDIA_MIGRATIONS,
    ...LIVENESS_MIGRATIONS,
    ...(deps.faceStore ? [] : FACE_MIGRATIONS),
    ...(deps.externalAnalyses ? [] : ANALYSES_MIGRATIONS),
    ...LIFECYCLE_MIGRATIONS,
  ]);
  const media = sqliteMediaForget(db);
  const faces = deps.faceStore ? null : sqliteFaceForget(db);
  const attempts = sqliteAttemptForget(db);
  const analyses = deps.externalAnalyses ? null : sqliteAnalysesForget(db);
  const consentDue = db
    .prepare('SELECT id FROM media WHERE delete_after <= ? ORDER BY delete_after LIMIT ?')
    .pluck();
  const forgetRows = db.transaction((ids: readonly string[], now: number) =>
    media.forget(ids, now),
  );
  const cached = deps.faces ?? {
    forgetMedia: async (ids: readonly string[]) => sqliteFaceForget(db).forgetMedia(ids),
  };
  return {
    async eraseSession(input) {
      let mediaIds: string[] = [];
      const outcome = await deps.store.eraseSession({
        ...input,
        alsoErase(tomb) {
          mediaIds = media.ofSession(tomb.id);
          faces?.forgetMedia(mediaIds);
          faces?.forgetSession(tomb.id);
          attempts.forgetSession(tomb.id);
          analyses?.forgetSession(tomb.id);
          media.forget(mediaIds, input.now);
        },
      });
      if (!outcome.ok || !outcome.erased) return outcome;
      if (deps.externalMedia) await deps.media?.deleteForSession(input.sessionId);
      if (deps.faceStore) {
        await deps.faceStore.forgetMedia(mediaIds);
        await deps.faceStore.forgetSession(input.sessionId);
      }
      return outcome;
    },
    listEndedBefore: (endedBefore, limit) => deps.store.listEndedBefore(endedBefore, limit),
    /** Records first (their URLs die at once), then the embeddings cached for them. */
    async forgetMedia(ids, now) {
      const n = forgetRows(ids, now);
      await cached.forgetMedia(ids);
      return n;
    },
    async mediaOlderThan(kind, createdBefore, limit) {
      return media.olderThan(kind, createdBefore, limit);
    },
    async consentDue(now, limit) {
      return consentDue.all(now, limit) as string[];
    },
  };
}
