/**
 * What the site remembers about each verification it started, in memory (a real site keeps this
 * in its database, on the user's row).
 */
export interface Verification {
  /** Our own reference, sent as the session's `clientReferenceId` and in its `redirectUrl`. */
  ref: string;
  sessionId: string;
  /** The last status change a webhook told us about (fetched from the API: events carry none). */
  fromWebhook?: { eventId: string; status: string; isVerified: boolean; receivedAt: number };
}

export interface Verifications {
  start(ref: string, sessionId: string): void;
  byRef(ref: string): Verification | undefined;
  bySession(sessionId: string): Verification | undefined;
  /** Records what a webhook's session turned out to be; false when the session is not ours. */
  record(sessionId: string, update: NonNullable<Verification['fromWebhook']>): boolean;
}

/**
 * An in-memory table of verifications, found by our reference or by the service's session id.
 *
 * @example
 * const v = createVerifications();
 * v.start('ref-1', 'sess_abc');
 * v.record('sess_abc', { eventId: 'evt_1', status: 'complete', isVerified: true, receivedAt: Date.now() });
 * v.byRef('ref-1')?.fromWebhook?.status; // 'complete'
 */
export function createVerifications(): Verifications {
  const rows = new Map<string, Verification>();
  const refOfSession = new Map<string, string>();
  return {
    start(ref, sessionId) {
      rows.set(ref, { ref, sessionId });
      refOfSession.set(sessionId, ref);
    },
    byRef: (ref) => rows.get(ref),
    bySession(sessionId) {
      const ref = refOfSession.get(sessionId);
      return ref === undefined ? undefined : rows.get(ref);
    },
    record(sessionId, update) {
      const row = this.bySession(sessionId);
      if (!row) return false;
      row.fromWebhook = update;
      return true;
    },
  };
}
