import type { OtpSendLimits } from '../store/types';

/**
 * How many codes a session may have sent (docs/decisions.md, "Codes"): a code node's user needs
 * one, perhaps a resend or two; a page driven by someone else must not turn the service into a
 * mail or SMS cannon. Five per node, ten per session, and three different destinations typed by
 * the user per session (one per code node and a corrected typo).
 *
 * @example
 * DEFAULT_OTP_LIMITS.perNode; // 5
 */
export const DEFAULT_OTP_LIMITS: Readonly<OtpSendLimits> = {
  perNode: 5,
  perSession: 10,
  destinationsPerSession: 3,
};
