import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { LooseNode, NodeIssue } from './common';
import { fixedOutcomes, nodeSchema } from './common';
import type { Kind } from './kind';
import { outcomeKeys } from './kind';
import type { OtpReport, ResolvedOtpOptions } from './otp';
import { OTP_DEFAULTS, OTP_OUTCOMES, checkTemplate, otpOptions, templateSchema } from './otp';

/**
 * A one-time code by email. The address comes from an earlier enter_email node or
 * `providedData.email`; with neither, the node asks for it first.
 */
export const TwoFactorEmailNodeSchema = nodeSchema(
  'two_factor_email',
  {
    ...otpOptions,
    emailTemplate: Type.Optional(
      templateSchema('The email body; {{code}} marks where the code goes.'),
    ),
    outcomes: fixedOutcomes(outcomeKeys(OTP_OUTCOMES)),
  },
  'One-time passcode by email.',
);
export type TwoFactorEmailNode = Static<typeof TwoFactorEmailNodeSchema>;
export type ResolvedTwoFactorEmailNode = TwoFactorEmailNode & ResolvedOtpOptions;

/**
 * The node with every option filled in.
 * @example twoFactorEmailWithDefaults({ id: 'o', type: 'two_factor_email', outcomes: {} }).otpLength // 6
 */
export function twoFactorEmailWithDefaults(node: TwoFactorEmailNode): ResolvedTwoFactorEmailNode {
  return { ...OTP_DEFAULTS, ...node };
}

/**
 * The template must hold the `{{code}}` placeholder.
 * @example checkTwoFactorEmail({ ..., emailTemplate: 'Hi' }) // one issue at .emailTemplate
 */
export function checkTwoFactorEmail(node: LooseNode): NodeIssue[] {
  return checkTemplate('emailTemplate', node.emailTemplate);
}

/** The two_factor_email kind. */
export const twoFactorEmail = {
  type: 'two_factor_email',
  schema: TwoFactorEmailNodeSchema,
  defaults: twoFactorEmailWithDefaults,
  check: checkTwoFactorEmail,
  routes: { routing: 'fixed', outcomes: OTP_OUTCOMES },
  types: {} as { report: OtpReport },
} as const satisfies Kind<
  'two_factor_email',
  typeof TwoFactorEmailNodeSchema,
  ResolvedTwoFactorEmailNode,
  OtpReport
>;
