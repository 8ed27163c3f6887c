import { Type } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { NodeIssue } from './common';
import { BoundedInteger } from './common';
import type { OutcomeRules } from './kind';

/**
 * The outcomes two_factor_email and two_factor_sms share: the server checks the code and the
 * delivery; only cancelling is the user's.
 */
export const OTP_OUTCOMES = {
  verified: { decidedBy: 'server', failing: false },
  delivery_failed: { decidedBy: 'server', failing: true },
  failed_unverified: { decidedBy: 'server', failing: true },
  cancelled: { decidedBy: 'user', failing: true },
  error: { decidedBy: 'server', failing: true },
} as const satisfies OutcomeRules;

/** What a code node's report holds: the channel, the masked destination and the attempts made. */
export interface OtpReport {
  channel: 'email' | 'sms';
  sentTo: string;
  /** Codes tried (absent when the delivery failed). */
  attempts?: number;
}

/** The options two_factor_email and two_factor_sms share. */
export const otpOptions = {
  otpLength: Type.Optional(BoundedInteger(FLOW_LIMITS.otpLength, 'Digits in the code.')),
  expirySeconds: Type.Optional(
    BoundedInteger(FLOW_LIMITS.expirySeconds, 'Seconds a code stays valid.'),
  ),
  maxAttempts: Type.Optional(
    BoundedInteger(FLOW_LIMITS.maxAttempts, 'Wrong codes allowed before failed_unverified.'),
  ),
  resendAfterSeconds: Type.Optional(
    BoundedInteger(FLOW_LIMITS.resendAfterSeconds, 'Seconds before a new code may be sent.'),
  ),
  showUI: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        'Whether the page shows a notice (a toast) when a code is sent; false: the code screen only.',
    }),
  ),
};

export const OTP_DEFAULTS = {
  otpLength: FLOW_LIMITS.otpLength.default,
  expirySeconds: FLOW_LIMITS.expirySeconds.default,
  maxAttempts: FLOW_LIMITS.maxAttempts.default,
  resendAfterSeconds: FLOW_LIMITS.resendAfterSeconds.default,
  showUI: true,
} as const;

export interface ResolvedOtpOptions {
  otpLength: number;
  expirySeconds: number;
  maxAttempts: number;
  resendAfterSeconds: number;
  showUI: boolean;
}

export const CODE_PLACEHOLDER = '{{code}}';

/** A message template with the `{{code}}` placeholder. */
export const templateSchema = (description: string) =>
  Type.String({ minLength: 1, maxLength: FLOW_LIMITS.maxPromptLength, description });

/**
 * A template that lacks `{{code}}` would send a message without the code.
 * @example checkTemplate('smsTemplate', 'Your code') // one issue
 */
export function checkTemplate(field: string, template: unknown): NodeIssue[] {
  if (typeof template !== 'string' || template.includes(CODE_PLACEHOLDER)) return [];
  return [
    {
      field: `.${field}`,
      message: `${field} must contain ${CODE_PLACEHOLDER} where the code goes`,
    },
  ];
}
