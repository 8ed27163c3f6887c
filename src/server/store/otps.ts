import type { Database, Statement } from 'better-sqlite3';
import type {
  OtpCheckInput,
  OtpCheckOutcome,
  OtpRecord,
  OtpSendClaim,
  OtpSendOutcome,
  OtpStore,
} from './types';

interface OtpRow {
  session_id: string;
  node_id: string;
  channel: 'email' | 'sms';
  destination: string;
  code_hash: string;
  sent_at: number;
  expires_at: number;
  attempts: number;
}

const otpOf = (r: OtpRow): OtpRecord => ({
  sessionId: r.session_id,
  nodeId: r.node_id,
  channel: r.channel,
  destination: r.destination,
  codeHash: r.code_hash,
  sentAt: r.sent_at,
  expiresAt: r.expires_at,
  attempts: r.attempts,
});

/**
 * The one-time codes of one SQLite database (`otps`, one row per node with its current code, and
 * `otp_sends`, one row per code sent). Every check and the write it allows are one IMMEDIATE
 * transaction, so concurrent requests (or processes) are serialised on them: a send claims its
 * slot before it delivers, and a wrong code is counted by an increment, never by writing back a
 * count read earlier. Prepared on first use: a database migrated only partly (tests of
 * migrations) has no OTP tables.
 *
 * @example
 * const otps = sqliteOtps(db);
 * await otps.claimOtpSend({ otp, chosenByPage: false, resendAfterMs: 30_000, limits }); // { ok: true }
 */
export function sqliteOtps(db: Database): OtpStore {
  let statements: OtpStatements | null = null;
  const otps = () => (statements ??= new OtpStatements(db));
  return {
    async getOtp(sessionId, nodeId) {
      return otps().get(sessionId, nodeId);
    },
    async claimOtpSend(claim) {
      return otps().claim(claim);
    },
    async checkOtp(input) {
      return otps().check(input);
    },
  };
}

class OtpStatements {
  private readonly s: Record<
    'get' | 'upsert' | 'counts' | 'chosen' | 'logSend' | 'countWrong',
    Statement
  >;
  private readonly claimTx: (claim: OtpSendClaim) => OtpSendOutcome;
  private readonly checkTx: (input: OtpCheckInput) => OtpCheckOutcome;

  constructor(db: Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      get: p('SELECT * FROM otps WHERE session_id = ? AND node_id = ?'),
      // A resend replaces the code and keeps the wrong attempts: a resend is no fresh set of guesses.
      upsert: p(`INSERT INTO otps (session_id, node_id, channel, destination, code_hash, sent_at,
        expires_at, attempts) VALUES (@sessionId, @nodeId, @channel, @destination, @codeHash,
        @sentAt, @expiresAt, 0)
        ON CONFLICT (session_id, node_id) DO UPDATE SET channel = excluded.channel,
        destination = excluded.destination, code_hash = excluded.code_hash,
        sent_at = excluded.sent_at, expires_at = excluded.expires_at`),
      counts: p(`SELECT count(*) AS session, coalesce(sum(node_id = ?), 0) AS node
        FROM otp_sends WHERE session_id = ?`),
      chosen: p(`SELECT count(DISTINCT destination) AS n, coalesce(max(destination = ?), 0) AS known
        FROM otp_sends WHERE session_id = ? AND chosen = 1`),
      logSend: p(`INSERT INTO otp_sends (session_id, node_id, destination, chosen, sent_at)
        VALUES (?, ?, ?, ?, ?)`),
      countWrong: p(`UPDATE otps SET attempts = attempts + 1 WHERE session_id = ? AND node_id = ?
        RETURNING attempts`),
    };
    const claim = db.transaction((c: OtpSendClaim): OtpSendOutcome => {
      const { otp, limits } = c;
      const prev = this.s.get.get(otp.sessionId, otp.nodeId) as OtpRow | undefined;
      if (prev && otp.sentAt < prev.sent_at + c.resendAfterMs) {
        return { ok: false, reason: 'too_soon', retryAt: prev.sent_at + c.resendAfterMs };
      }
      const sent = this.s.counts.get(otp.nodeId, otp.sessionId) as {
        session: number;
        node: number;
      };
      if (sent.node >= limits.perNode) {
        return { ok: false, reason: 'node_limit', limit: limits.perNode };
      }
      if (sent.session >= limits.perSession) {
        return { ok: false, reason: 'session_limit', limit: limits.perSession };
      }
      if (c.chosenByPage) {
        const chosen = this.s.chosen.get(otp.destination, otp.sessionId) as {
          n: number;
          known: number;
        };
        if (!chosen.known && chosen.n >= limits.destinationsPerSession) {
          return { ok: false, reason: 'destination_limit', limit: limits.destinationsPerSession };
        }
      }
      this.s.upsert.run(otp);
      this.s.logSend.run(
        otp.sessionId,
        otp.nodeId,
        otp.destination,
        c.chosenByPage ? 1 : 0,
        otp.sentAt,
      );
      return { ok: true };
    });
    this.claimTx = (c) => claim.immediate(c);
    const check = db.transaction((input: OtpCheckInput): OtpCheckOutcome => {
      const r = this.s.get.get(input.sessionId, input.nodeId) as OtpRow | undefined;
      if (!r) return { status: 'not_sent' };
      if (input.now >= r.expires_at) return { status: 'expired' };
      const otp = otpOf(r);
      // Guesses that raced the one reaching the limit are not compared at all.
      if (r.attempts >= input.maxAttempts) {
        return { status: 'checked', ok: false, attempts: r.attempts, otp };
      }
      if (input.matches(r.code_hash)) {
        return { status: 'checked', ok: true, attempts: r.attempts, otp };
      }
      const attempts = (
        this.s.countWrong.get(input.sessionId, input.nodeId) as { attempts: number }
      ).attempts;
      return { status: 'checked', ok: false, attempts, otp: { ...otp, attempts } };
    });
    this.checkTx = (input) => check.immediate(input);
  }

  get(sessionId: string, nodeId: string): OtpRecord | null {
    const r = this.s.get.get(sessionId, nodeId) as OtpRow | undefined;
    return r ? otpOf(r) : null;
  }

  claim(c: OtpSendClaim): OtpSendOutcome {
    return this.claimTx(c);
  }

  check(input: OtpCheckInput): OtpCheckOutcome {
    return this.checkTx(input);
  }
}
