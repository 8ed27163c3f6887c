import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { LooseNode, NodeIssue } from './common';
import { fixedOutcomes, nodeSchema } from './common';
import type { Kind } from './kind';
import { outcomeKeys } from './kind';
import type { OtpReport, ResolvedOtpOptions } from './otp';
import { OTP_DEFAULTS, OTP_OUTCOMES, checkTemplate, otpOptions, templateSchema } from './otp';

/** A one-time code by SMS to `providedData.phone`; with none, the node asks for it first. */
export const TwoFactorSmsNodeSchema = nodeSchema(
  'two_factor_sms',
  {
    ...otpOptions,
    smsTemplate: Type.Optional(templateSchema('The SMS text; {{code}} marks where the code goes.')),
    outcomes: fixedOutcomes(outcomeKeys(OTP_OUTCOMES)),
  },
  'One-time passcode by SMS.',
);
export type TwoFactorSmsNode = Static<typeof TwoFactorSmsNodeSchema>;
export type ResolvedTwoFactorSmsNode = TwoFactorSmsNode & ResolvedOtpOptions;

/**
 * The node with every option filled in.
 * @example twoFactorSmsWithDefaults({ id: 's', type: 'two_factor_sms', outcomes: {} }).expirySeconds // 300
 */
export function twoFactorSmsWithDefaults(node: TwoFactorSmsNode): ResolvedTwoFactorSmsNode {
  return { ...OTP_DEFAULTS, ...node };
}

/**
 * The template must hold the `{{code}}` placeholder.
 * @example checkTwoFactorSms({ ..., smsTemplate: 'Hi' }) // one issue at .smsTemplate
 */
export function checkTwoFactorSms(node: LooseNode): NodeIssue[] {
  return checkTemplate('smsTemplate', node.smsTemplate);
}

/** The two_factor_sms kind. */
export const twoFactorSms = {
  type: 'two_factor_sms',
  schema: TwoFactorSmsNodeSchema,
  defaults: twoFactorSmsWithDefaults,
  check: checkTwoFactorSms,
  routes: { routing: 'fixed', outcomes: OTP_OUTCOMES },
  types: {} as { report: OtpReport },
} as const satisfies Kind<
  'two_factor_sms',
  typeof TwoFactorSmsNodeSchema,
  ResolvedTwoFactorSmsNode,
  OtpReport
>;
