/**
 * Erasing one session, every feature's part of it in one transaction (docs/lifecycle.md): the
 * `idv sessions erase` command, `POST /sessions/:id/erase` and the session retention share it.
 */
import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock';
import { FACE_MIGRATIONS, sqliteFaceForget, type FaceStore } from '../faces/face-store';
import { endIncomplete } from '../flow/runtime';
import { LIVENESS_MIGRATIONS, sqliteAttemptForget } from '../liveness/attempt-store';
import { sqliteMediaForget } from '../media/forget';
import { MEDIA_MIGRATIONS } from '../media/migrations';
import type { MediaService } from '../media/types';
import { sqliteAnalysesForget } from '../session-analyses/forget';
import { ANALYSES_MIGRATIONS } from '../session-analyses/migrations';
import { runMigrations } from '../store/migrations';
import type { EraseOutcome, Scope, SessionErasureStore } from '../store/types';

export interface SessionEraser {
  /** Erases the session of `scope`: `not_found` when it has none of that id. */
  erase(scope: Scope, sessionId: string): Promise<EraseOutcome>;
}

export interface SessionEraserDeps {
  store: SessionErasureStore;
  /** The store's SQLite handle, where the features' tables live. */
  db: Database;
  /** Whose bytes go after the commit. */
  media: Pick<MediaService, 'purgeDeleted' | 'deleteForSession'>;
  clock: Clock;
  /**
   * True when media records live outside the SQLite file (PostgreSQL): the session's media are
   * then deleted right after the commit (`deleteForSession`), not inside the transaction.
   */
  externalMedia?: boolean;
  /**
   * A face store outside the SQLite file (PostgreSQL): its part runs right after the commit.
   * Default: the SQLite tables, inside the transaction.
   */
  faceStore?: FaceStore;
  /**
   * True when the analyses' tables are outside the SQLite file: their rows of the session are
   * then left (their jobs find a tombstone); the PostgreSQL store has no `forgetSession` yet.
   */
  externalAnalyses?: boolean;
}

/**
 * The eraser over a store and its features' tables. What goes: the session's media (records in
 * the transaction, bytes right after), its liveness attempts and frames, its video frames and
 * analysis state, its face-index entry and cached embeddings, and what the store's own
 * `eraseSession` removes (tokens, codes, hand-offs, idempotent answers, the report).
 *
 * @example
 * const eraser = createSessionEraser({ store, db: store.db, media, clock });
 * await eraser.erase({ accountId, mode: 'live' }, 'sess_…'); // { ok: true, session: <tombstone>, erased: true }
 */
export function createSessionEraser(deps: SessionEraserDeps): SessionEraser {
  const { db, clock } = deps;
  runMigrations(db, [
    ...MEDIA_MIGRATIONS,
    ...LIVENESS_MIGRATIONS,
    ...(deps.faceStore ? [] : FACE_MIGRATIONS),
    ...(deps.externalAnalyses ? [] : ANALYSES_MIGRATIONS),
  ]);
  const media = sqliteMediaForget(db);
  const faces = deps.faceStore ? null : sqliteFaceForget(db);
  const attempts = sqliteAttemptForget(db);
  const analyses = deps.externalAnalyses ? null : sqliteAnalysesForget(db);
  return {
    async erase(scope, sessionId) {
      const now = clock.now();
      let mediaIds: string[] = [];
      const outcome = await deps.store.eraseSession({
        scope,
        sessionId,
        now,
        // The integrator stopped it: a page still open finds it ended.
        end: (s) => endIncomplete(s, now, 'stopped'),
        alsoErase(tomb) {
          mediaIds = media.ofSession(tomb.id);
          faces?.forgetMedia(mediaIds);
          faces?.forgetSession(tomb.id);
          attempts.forgetSession(tomb.id);
          analyses?.forgetSession(tomb.id);
          media.forget(mediaIds, now);
        },
      });
      if (!outcome.ok) return outcome;
      if (deps.externalMedia && outcome.erased) await deps.media.deleteForSession(sessionId);
      if (deps.faceStore && outcome.erased) {
        await deps.faceStore.forgetMedia(mediaIds);
        await deps.faceStore.forgetSession(sessionId);
      }
      while ((await deps.media.purgeDeleted(500)) === 500);
      return outcome;
    },
  };
}
