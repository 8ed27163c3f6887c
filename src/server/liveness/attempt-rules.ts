/**
 * What an attempt takes and refuses, checked by both attempt stores inside their transactions
 * (docs/liveness.md, "Attempts"): the rules live here, the stores only read and write.
 */
import type { AttemptEnd, AttemptRecord, AttemptRefusal, StartLimits } from './attempt-types';

/** Attempts that were judged (finished or expired), not those replaced or still capturing. */
export const judged = (a: Pick<AttemptRecord, 'status'>) =>
  a.status === 'analysing' || a.status === 'decided';

/**
 * Why an attempt takes nothing more, or null while it is still capturing.
 *
 * @example
 * closedReason(null, now); // 'unknown'
 * closedReason({ status: 'capturing', expiresAt: now }, now); // 'expired'
 */
export function closedReason(
  a: Pick<AttemptRecord, 'status' | 'expiresAt'> | null,
  now: number,
): AttemptRefusal | null {
  if (!a) return 'unknown';
  if (a.status !== 'capturing') return 'finished';
  if (now >= a.expiresAt) return 'expired';
  return null;
}

/**
 * Whether a node may start another attempt, given its attempts so far: refused while one is
 * being analysed, and once `maxStarts` starts or `maxAttempts` judged ones are used; else the new
 * attempt's number among the judged ones.
 *
 * @example
 * startRefusal([], { maxStarts: 5, maxAttempts: 3 }); // { ok: true, attempt: 1 }
 */
export function startRefusal(
  existing: readonly Pick<AttemptRecord, 'status'>[],
  limits: StartLimits,
): { ok: true; attempt: number } | { ok: false; reason: 'exhausted' | 'finished' } {
  if (existing.some((x) => x.status === 'analysing')) return { ok: false, reason: 'finished' };
  const counted = existing.filter(judged).length;
  if (existing.length >= limits.maxStarts || counted >= limits.maxAttempts) {
    return { ok: false, reason: 'exhausted' };
  }
  return { ok: true, attempt: counted + 1 };
}

/**
 * Why an attempt takes no frame now, or null when it takes one.
 *
 * @example
 * frameRefusal({ status: 'capturing', expiresAt: now + 1, frameCount: 60, maxFrames: 60 }, now);
 * // 'too_many_frames'
 */
export function frameRefusal(
  a: Pick<AttemptRecord, 'status' | 'expiresAt' | 'frameCount' | 'maxFrames'> | null,
  now: number,
): AttemptRefusal | null {
  const why = closedReason(a, now);
  if (why || !a) return why;
  return a.frameCount >= a.maxFrames ? 'too_many_frames' : null;
}

/**
 * Why an attempt cannot be finished now `ended`, or null when it can. An expired attempt may still
 * be closed as expired (by the sweep or a late finish).
 *
 * @example
 * finishRefusal({ status: 'capturing', expiresAt: now }, 'expired', now); // null
 */
export function finishRefusal(
  a: Pick<AttemptRecord, 'status' | 'expiresAt'> | null,
  ended: AttemptEnd,
  now: number,
): AttemptRefusal | null {
  const why = closedReason(a, now);
  return why && !(why === 'expired' && ended === 'expired') ? why : null;
}
