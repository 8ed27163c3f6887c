import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { LooseNode, NodeIssue } from './common';
import { fixedOutcomes, nodeSchema } from './common';
import type { ResolvedOtpOptions } from './otp-options';
import { OTP_DEFAULTS, checkTemplate, otpOptions, templateSchema } from './otp-options';
import { FIXED_OUTCOMES } from '../node-types';

/** A one-time code by SMS to `providedData.phone`; with none, the node asks for it first. */
export const TwoFactorSmsNodeSchema = nodeSchema(
  'two_factor_sms',
  {
    ...otpOptions,
    smsTemplate: Type.Optional(templateSchema('The SMS text; {{code}} marks where the code goes.')),
    outcomes: fixedOutcomes(FIXED_OUTCOMES.two_factor_sms),
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
