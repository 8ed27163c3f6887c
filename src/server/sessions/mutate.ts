import type { Clock } from '../clock';
import { ApiError } from '../http/errors';
import type { SessionRecord, SessionStore } from '../store/types';

/**
 * Applies `change` to the freshest copy of a session and stores it, reading again and retrying
 * when someone else wrote in between (the store's optimistic `rev`); `change` returns its input
 * to change nothing, or throws to refuse.
 *
 * @example
 * await mutateSession(store, clock, id, (s, now) => ({ ...s, lastActivityAt: now }), { what: 'a client request' });
 */
export async function mutateSession(
  store: SessionStore,
  clock: Clock,
  sessionId: string,
  change: (s: SessionRecord, now: number) => SessionRecord,
  o: { what: string; tries?: number; missing?: () => Error },
): Promise<SessionRecord> {
  for (let attempt = 0; attempt < (o.tries ?? 5); attempt++) {
    const s = await store.getSessionById(sessionId);
    if (!s) throw o.missing ? o.missing() : new ApiError('not_found_error', 'Session not found');
    const now = clock.now();
    const next = change(s, now);
    if (next === s) return s;
    const saved = await store.updateSession(s, next, now);
    if (saved) return saved;
  }
  throw new Error(`session ${sessionId} kept changing under ${o.what}`);
}
