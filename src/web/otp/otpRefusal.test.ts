import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { otpRefusalKey } from './otpRefusal';

const CODES = [
  'otp_send_limit',
  'otp_destination_limit',
  'otp_resend_too_soon',
  'otp_not_sent',
  'otp_destination_invalid',
];

describe('otpRefusalKey', () => {
  it('gives each code refusal of the server its own message, per channel for the address', () => {
    expect(CODES.map((c) => otpRefusalKey(c, 'email'))).toEqual([
      'otp.refused.sendLimit',
      'otp.refused.destinationLimit',
      'otp.refused.tooSoon',
      'otp.refused.notSent',
      'otp.refused.emailInvalid',
    ]);
    expect(otpRefusalKey('otp_destination_invalid', 'sms')).toBe('otp.refused.phoneInvalid');
  });

  it('leaves refusals that are not the code step’s own to the generic message', () => {
    expect(otpRefusalKey('api_error', 'email')).toBeNull();
    expect(otpRefusalKey(undefined, 'sms')).toBeNull();
  });

  it('every key it gives exists in the English locale (the others are checked against it)', () => {
    const refused = (en.otp as Record<string, unknown>)['refused'] as Record<string, string>;
    for (const channel of ['email', 'sms'] as const) {
      for (const code of CODES) {
        const key = otpRefusalKey(code, channel)?.split('.')[2] ?? '';
        expect(refused?.[key], `${code} ${channel}`).toEqual(expect.any(String));
      }
    }
  });
});
