/**
 * Retention (docs/lifecycle.md): media deleted by kind and age, or by the days the user was told
 * (`customization.consent.retentionDays`), and finished sessions erased some days after their end.
 * The sweeper runs it, in batches of its own size, each batch one transaction.
 */
import type { Clock } from '../clock';
import type { MediaKind, MediaService } from '../media/types';
import type { SessionEraser } from './erase-session';
import type { LifecycleStore } from './lifecycle-store';

export const DAY_MS = 86_400_000;

/** Days each thing is kept; `null` (or absent): until its session is erased. */
export interface RetentionSettings {
  media: Partial<Record<MediaKind, number | null>>;
  /** A finished session is erased this many days after it ended. */
  sessionDays: number | null;
}

/**
 * Frames are deleted as soon as their attempt is decided or their analysis stored; a day is only
 * the net for frames whose decision never came. Everything else is kept until told otherwise.
 */
export const DEFAULT_RETENTION: RetentionSettings = { media: { frame: 1 }, sessionDays: null };

/** The environment variable of each media kind, e.g. `RETENTION_MEDIA_USER_PHOTO_DAYS`. */
export const RETENTION_MEDIA_ENV: Record<MediaKind, string> = {
  frame: 'RETENTION_MEDIA_FRAME_DAYS',
  screenshot: 'RETENTION_MEDIA_SCREENSHOT_DAYS',
  user_photo: 'RETENTION_MEDIA_USER_PHOTO_DAYS',
  document_photo: 'RETENTION_MEDIA_DOCUMENT_PHOTO_DAYS',
  user_video: 'RETENTION_MEDIA_USER_VIDEO_DAYS',
};
export const RETENTION_SESSION_ENV = 'RETENTION_SESSION_DAYS';

function daysEnv(env: Record<string, string | undefined>, name: string, fallback: number | null) {
  const v = env[name];
  if (v === undefined || v.trim() === '') return fallback;
  if (v.trim() === 'never') return null;
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n) || n * DAY_MS > Number.MAX_SAFE_INTEGER) {
    throw new Error(`${name} must be a number of days above 0, or "never" (got ${v})`);
  }
  return n;
}

/**
 * Reads the `RETENTION_*_DAYS` variables: a number of days above 0 (fractions allowed), or
 * `never`; unset keeps the default.
 *
 * @example
 * retentionFromEnv({ RETENTION_MEDIA_USER_VIDEO_DAYS: '30' }).media.user_video; // 30
 * retentionFromEnv({ RETENTION_MEDIA_FRAME_DAYS: 'never' }).media.frame; // null
 */
export function retentionFromEnv(env: Record<string, string | undefined>): RetentionSettings {
  const media: RetentionSettings['media'] = {};
  for (const [kind, name] of Object.entries(RETENTION_MEDIA_ENV) as [MediaKind, string][]) {
    media[kind] = daysEnv(env, name, DEFAULT_RETENTION.media[kind] ?? null);
  }
  return { media, sessionDays: daysEnv(env, RETENTION_SESSION_ENV, DEFAULT_RETENTION.sessionDays) };
}

/** What one round removed. */
export interface RetentionRound {
  media: number;
  sessions: number;
}

export interface Retention {
  /** One round: every due medium and session, `batch` at a time; at most `maxBatches` each. */
  runOnce(batch: number, maxBatches?: number): Promise<RetentionRound>;
}

/**
 * The retention over a database's lifecycle store (SQLite's or PostgreSQL's).
 *
 * @example
 * const retention = createRetention({ lifecycle, media, eraser, clock, settings: DEFAULT_RETENTION });
 * await retention.runOnce(500); // { media: 0, sessions: 0 }
 */
export function createRetention(deps: {
  lifecycle: LifecycleStore;
  media: Pick<MediaService, 'purgeDeleted'>;
  eraser: SessionEraser;
  clock: Clock;
  settings: RetentionSettings;
}): Retention {
  const { lifecycle, clock, settings } = deps;

  /** Runs `due` batch after batch until a short one (or `maxBatches`); returns the total. */
  async function drain(
    due: (now: number) => Promise<string[] | number>,
    batch: number,
    maxBatches: number,
  ): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const now = clock.now();
      const found = await due(now);
      const n = typeof found === 'number' ? found : await lifecycle.forgetMedia(found, now);
      total += n;
      const size = typeof found === 'number' ? found : found.length;
      if (size < batch) break;
    }
    return total;
  }

  return {
    async runOnce(batch, maxBatches = 20) {
      let media = 0;
      for (const [kind, days] of Object.entries(settings.media) as [MediaKind, number | null][]) {
        if (days === null || days === undefined) continue;
        media += await drain(
          (now) => lifecycle.mediaOlderThan(kind, now - days * DAY_MS, batch),
          batch,
          maxBatches,
        );
      }
      media += await drain((now) => lifecycle.consentDue(now, batch), batch, maxBatches);
      let sessions = 0;
      const days = settings.sessionDays;
      if (days !== null) {
        sessions = await drain(
          async (now) => {
            const due = await lifecycle.listEndedBefore(now - days * DAY_MS, batch);
            for (const d of due) await deps.eraser.erase(d.scope, d.sessionId);
            return due.length;
          },
          batch,
          maxBatches,
        );
      }
      // Also bytes an erasure or decision queued but could not delete (a process that died).
      while ((await deps.media.purgeDeleted(batch)) === batch);
      return { media, sessions };
    },
  };
}
