/**
 * Erasing a session (docs/lifecycle.md): its personal data goes, a tombstone stays. The core's
 * part (the session row, its tokens, codes, hand-offs and idempotent answers, the `session.erased`
 * event) and the features' parts (`alsoErase`) are one SQLite transaction: all or nothing.
 */
import type { Database } from 'better-sqlite3';
import { orderedId } from '../ids';
import type { SqliteEvents } from './events';
import { settingsJson, type SessionRow } from './rows';
import type { SessionRows } from './sessions';
import type {
  EraseInput,
  EraseOutcome,
  SessionErasureStore,
  SessionRecord,
  StoredSettings,
} from './types';

/** How long a create's stored answer is kept (`IDEMPOTENCY_TTL_MS`), and a margin for clocks. */
const ANSWER_KEPT_MS = 24 * 60 * 60 * 1000;
const SLACK_MS = 10 * 60 * 1000;

/**
 * The expiry times between which a session's stored create answer can be: it is written with the
 * session and kept a day, so an erasure reads that stretch of the expiry index, not the table.
 *
 * @example
 * answerExpiryWindow(1_000_000_000); // { from: 999_400_000, to: 1_087_000_000 }
 */
export const answerExpiryWindow = (createdAt: number) => ({
  from: createdAt - SLACK_MS,
  to: createdAt + ANSWER_KEPT_MS + SLACK_MS,
});

/** The core's tables whose rows of a session go with it (`session_id`), on both databases. */
export const SESSION_ROW_TABLES = [
  'client_tokens',
  'retired_secrets',
  'otps',
  'otp_sends',
  'handoffs',
  'session_ends',
] as const;

/**
 * What is kept of an erased session: id, account, mode, status, timestamps, flow, version and the
 * overall `isVerified` (false would misstate what was decided). Everything the user gave or the
 * service measured goes: settings but the flow, reference, report, path.
 *
 * @example
 * tombstoneOf(session, 1_700_000_000_000).report; // { transcript: [], nodeReports: [], isVerified: true, erasedAt: 1700000000000 }
 */
export function tombstoneOf(s: SessionRecord, now: number): SessionRecord {
  const { endReason } = s.position;
  return {
    ...s,
    clientReferenceId: null,
    settings: { flow: s.settings.flow } as StoredSettings,
    report: { transcript: [], nodeReports: [], isVerified: s.report.isVerified, erasedAt: now },
    position: {
      nodeId: null,
      nodeType: null,
      status: s.position.status,
      path: [],
      ...(endReason ? { endReason } : {}),
    },
  };
}

/** Whether a session is a tombstone. */
export const isErased = (s: Pick<SessionRecord, 'report'>): boolean =>
  typeof s.report.erasedAt === 'number';

/**
 * The core's erasure over one SQLite database, and the finished sessions a retention may erase
 * (`session_ends`, filled by a trigger as sessions end, emptied as they are erased).
 *
 * @example
 * const erasure = sqliteErasure(db, sessions.rows, events);
 * await erasure.eraseSession({ scope, sessionId, now, end: (s) => endIncomplete(s, now, 'stopped') });
 */
export function sqliteErasure(
  db: Database,
  rows: SessionRows,
  events: SqliteEvents,
): SessionErasureStore {
  // Prepared on first use: a store opened with only some migrations (their tests) never erases.
  const prepare = () => ({
    tombstone: db.prepare(`UPDATE sessions SET client_reference_id = NULL, search_text = @search,
      settings = @settings, report = @report, position = @position,
      secret_used_at = COALESCE(secret_used_at, @now), rev = rev + 1
      WHERE id = @id AND rev = @rev`),
    sessionRows: SESSION_ROW_TABLES.map((t) => db.prepare(`DELETE FROM ${t} WHERE session_id = ?`)),
    // A stored create answer holds the whole session as it was made (providedData, metadata).
    // Written with the session and kept a day (IDEMPOTENCY_TTL_MS): read through the expiry
    // index around then, not the whole table (session_id has no index of its own).
    idempotency: db.prepare(`DELETE FROM idempotency_keys INDEXED BY idempotency_keys_expiry
      WHERE expires_at BETWEEN @from AND @to
        AND account_id = @account AND mode = @mode AND session_id = @id`),
    ended: db.prepare(`SELECT s.id, s.account_id, s.mode FROM session_ends e
      JOIN sessions s ON s.id = e.session_id WHERE e.ended_at < ? ORDER BY e.ended_at LIMIT ?`),
  });
  let prepared: ReturnType<typeof prepare> | null = null;
  const stmts = () => (prepared ??= prepare());

  const erase = db.transaction((input: EraseInput): EraseOutcome => {
    const s = stmts();
    const row = rows.inScope(input.scope, input.sessionId);
    if (!row) return { ok: false, reason: 'not_found' };
    rows.forget(row.id);
    let cur = rows.record(row);
    if (isErased(cur)) return { ok: true, session: cur, erased: false };
    const ended = input.end(cur);
    if (ended !== cur) {
      // Inside one immediate transaction nobody else can have moved the row.
      cur = rows.update(cur, ended, input.now) ?? cur;
    }
    const tomb = tombstoneOf(cur, input.now);
    const res = s.tombstone.run({
      id: cur.id,
      rev: cur.rev,
      now: input.now,
      search: cur.id.toLowerCase(),
      settings: settingsJson(tomb.settings),
      report: JSON.stringify(tomb.report),
      position: JSON.stringify(tomb.position),
    });
    if (res.changes !== 1) throw new Error(`session ${cur.id} changed while it was erased`);
    for (const stmt of s.sessionRows) stmt.run(cur.id);
    s.idempotency.run({
      id: cur.id,
      account: cur.accountId,
      mode: cur.mode,
      ...answerExpiryWindow(cur.createdAt),
    });
    input.alsoErase?.(tomb);
    const id = input.eventId ?? orderedId('evt', 8);
    const event = { id, type: 'session.erased', createdAt: input.now, sessionId: cur.id };
    events.appendInTransaction({
      ...event,
      accountId: cur.accountId,
      mode: cur.mode,
      payload: JSON.stringify(event),
    });
    rows.forget(cur.id);
    return { ok: true, session: { ...tomb, rev: cur.rev + 1 }, erased: true };
  });

  return {
    async eraseSession(input) {
      return erase.immediate(input);
    },
    async listEndedBefore(endedBefore, limit) {
      const found = stmts().ended.all(endedBefore, limit) as Pick<
        SessionRow,
        'id' | 'account_id' | 'mode'
      >[];
      return found.map((r) => ({
        scope: { accountId: r.account_id, mode: r.mode },
        sessionId: r.id,
      }));
    },
  };
}
