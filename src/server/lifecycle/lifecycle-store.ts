/**
 * What the eraser and the retention need of a database (docs/lifecycle.md): SQLite's file
 * (`sqliteLifecycle`) and PostgreSQL (`pgLifecycle`) each answer it, so the rules of erasing and
 * of retention are written once (`createSessionEraser`, `createRetention`).
 */
import type { MediaKind } from '../media/types';
import type { EraseInput, EraseOutcome, Scope } from '../store/types';

export interface LifecycleStore {
  /**
   * Erases a session as the core store's `eraseSession` does, with every feature's rows of it
   * (media records, their bytes queued in `media_deletions`, liveness attempts and frames, video
   * frames and analysis state, face-index entries and cached embeddings) in the same
   * transaction: all or nothing.
   */
  eraseSession(input: Omit<EraseInput, 'alsoErase'>): Promise<EraseOutcome>;
  /** Finished sessions not erased yet that ended before `endedBefore`, the oldest first. */
  listEndedBefore(
    endedBefore: number,
    limit: number,
  ): Promise<{ scope: Scope; sessionId: string }[]>;
  /**
   * Deletes these media records (their bytes queued) and the embeddings cached for them; returns
   * how many records went.
   */
  forgetMedia(ids: readonly string[], now: number): Promise<number>;
  /** Ids of `kind` made before `createdBefore`, the oldest first. */
  mediaOlderThan(kind: MediaKind, createdBefore: number, limit: number): Promise<string[]>;
  /** Ids of media past the days their session's consent named (`delete_after <= now`). */
  consentDue(now: number, limit: number): Promise<string[]>;
}
