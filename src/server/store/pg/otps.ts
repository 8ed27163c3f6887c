import type { OtpCheckOutcome, OtpRecord, OtpSendOutcome, OtpStore } from '../types';
import type { Pg } from './client';

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
 * The one-time codes over PostgreSQL (`otps`, one row per node with its current code;
 * `otp_sends`, one row per code sent). A send locks its session's row before it counts, so
 * concurrent sends (from any instance) are checked one after the other; a check locks the code's
 * row, and a wrong code is counted by an increment.
 *
 * @example
 * const otps = pgOtps(pg);
 * await otps.claimOtpSend({ otp, chosenByPage: false, resendAfterMs: 30_000, limits }); // { ok: true }
 */
export function pgOtps(pg: Pg): OtpStore {
  return {
    async getOtp(sessionId, nodeId) {
      const [r] = await pg<OtpRow[]>`SELECT * FROM otps
        WHERE session_id = ${sessionId} AND node_id = ${nodeId}`;
      return r ? otpOf(r) : null;
    },
    async claimOtpSend(c) {
      return pg.begin(async (tx): Promise<OtpSendOutcome> => {
        const { otp, limits } = c;
        await tx`SELECT 1 FROM sessions WHERE id = ${otp.sessionId} FOR UPDATE`;
        const [prev] = await tx<OtpRow[]>`SELECT * FROM otps
          WHERE session_id = ${otp.sessionId} AND node_id = ${otp.nodeId}`;
        if (prev && otp.sentAt < prev.sent_at + c.resendAfterMs) {
          return { ok: false, reason: 'too_soon', retryAt: prev.sent_at + c.resendAfterMs };
        }
        const [sent] = await tx<{ session: number; node: number }[]>`SELECT count(*) AS session,
          count(*) FILTER (WHERE node_id = ${otp.nodeId}) AS node
          FROM otp_sends WHERE session_id = ${otp.sessionId}`;
        if ((sent?.node ?? 0) >= limits.perNode) {
          return { ok: false, reason: 'node_limit', limit: limits.perNode };
        }
        if ((sent?.session ?? 0) >= limits.perSession) {
          return { ok: false, reason: 'session_limit', limit: limits.perSession };
        }
        if (c.chosenByPage) {
          const [chosen] = await tx<{ n: number; known: boolean }[]>`SELECT
            count(DISTINCT destination) AS n, coalesce(bool_or(destination = ${otp.destination}),
            false) AS known FROM otp_sends WHERE session_id = ${otp.sessionId} AND chosen`;
          if (chosen && !chosen.known && chosen.n >= limits.destinationsPerSession) {
            return { ok: false, reason: 'destination_limit', limit: limits.destinationsPerSession };
          }
        }
        // A resend replaces the code and keeps the wrong attempts: no fresh set of guesses.
        await tx`INSERT INTO otps (session_id, node_id, channel, destination, code_hash, sent_at,
          expires_at, attempts) VALUES (${otp.sessionId}, ${otp.nodeId}, ${otp.channel},
          ${otp.destination}, ${otp.codeHash}, ${otp.sentAt}, ${otp.expiresAt}, 0)
          ON CONFLICT (session_id, node_id) DO UPDATE SET channel = excluded.channel,
          destination = excluded.destination, code_hash = excluded.code_hash,
          sent_at = excluded.sent_at, expires_at = excluded.expires_at`;
        await tx`INSERT INTO otp_sends (session_id, node_id, destination, chosen, sent_at)
          VALUES (${otp.sessionId}, ${otp.nodeId}, ${otp.destination}, ${c.chosenByPage},
          ${otp.sentAt})`;
        return { ok: true };
      });
    },
    async checkOtp(input) {
      return pg.begin(async (tx): Promise<OtpCheckOutcome> => {
        const [r] = await tx<OtpRow[]>`SELECT * FROM otps
          WHERE session_id = ${input.sessionId} AND node_id = ${input.nodeId} FOR UPDATE`;
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
        const [counted] = await tx<{ attempts: number }[]>`UPDATE otps
          SET attempts = attempts + 1
          WHERE session_id = ${input.sessionId} AND node_id = ${input.nodeId} RETURNING attempts`;
        const attempts = counted?.attempts ?? r.attempts + 1;
        return { status: 'checked', ok: false, attempts, otp: { ...otp, attempts } };
      });
    },
  };
}
