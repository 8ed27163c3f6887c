import { endIncomplete } from '../flow/runtime';
import type { SessionRecord } from '../store/types';

/** How long a session may wait before it ends `incomplete` (decisions.md, "States and their end"). */
export interface SessionTimeouts {
  /** An `inProgress` session with no activity for this long is abandoned. */
  idleMs: number;
  /** A `created` session never opened for this long can no longer be opened. */
  unopenedMs: number;
}

/** 30 minutes idle, 24 hours unopened; `SESSION_IDLE_TIMEOUT_MS`, `SESSION_UNOPENED_TIMEOUT_MS`. */
export const DEFAULT_SESSION_TIMEOUTS: Readonly<SessionTimeouts> = {
  idleMs: 30 * 60 * 1000,
  unopenedMs: 24 * 60 * 60 * 1000,
};

/**
 * Whether a timeout has passed for `s` at `now`: the rule the sweeper, the client token, the
 * secret exchange and the refresh all apply.
 *
 * @example
 * timedOut({ ...session, status: 'created', createdAt: 0 }, 86_400_000, DEFAULT_SESSION_TIMEOUTS); // true
 */
export function timedOut(s: SessionRecord, now: number, t: SessionTimeouts): boolean {
  if (s.status === 'created') return s.createdAt <= now - t.unopenedMs;
  if (s.status === 'inProgress') return s.lastActivityAt <= now - t.idleMs;
  return false;
}

/**
 * The session ended `incomplete` when a timeout has passed, else `null`: what a request does on
 * a session the sweeper has not reached yet.
 *
 * @example
 * expireIfTimedOut(session, Date.now(), DEFAULT_SESSION_TIMEOUTS)?.status; // 'incomplete' or undefined
 */
export function expireIfTimedOut(
  s: SessionRecord,
  now: number,
  t: SessionTimeouts,
): SessionRecord | null {
  return timedOut(s, now, t) ? endIncomplete(s, now, 'timedOut') : null;
}
