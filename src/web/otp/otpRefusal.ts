/** The words the code step shows for a refusal it cannot fix by itself, as a key of `otp.refused`. */
export type OtpRefusalKey =
  | 'otp.refused.sendLimit'
  | 'otp.refused.destinationLimit'
  | 'otp.refused.tooSoon'
  | 'otp.refused.notSent'
  | 'otp.refused.emailInvalid'
  | 'otp.refused.phoneInvalid';

/**
 * The translated message for a code refusal of the server (docs/client-api.md, "Errors"): the
 * caps on sends and destinations, the resend wait, a code checked before any was sent, an address
 * refused. Other refusals are not the code step's own (null: the generic message).
 *
 * @example
 * otpRefusalKey('otp_send_limit', 'email'); // 'otp.refused.sendLimit'
 * otpRefusalKey('otp_destination_invalid', 'sms'); // 'otp.refused.phoneInvalid'
 * otpRefusalKey('api_error', 'email'); // null
 */
export function otpRefusalKey(
  code: string | undefined,
  channel: 'email' | 'sms',
): OtpRefusalKey | null {
  switch (code) {
    case 'otp_send_limit':
      return 'otp.refused.sendLimit';
    case 'otp_destination_limit':
      return 'otp.refused.destinationLimit';
    case 'otp_resend_too_soon':
      return 'otp.refused.tooSoon';
    case 'otp_not_sent':
      return 'otp.refused.notSent';
    case 'otp_destination_invalid':
      return channel === 'email' ? 'otp.refused.emailInvalid' : 'otp.refused.phoneInvalid';
    default:
      return null;
  }
}
