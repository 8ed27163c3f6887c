import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { PromptSchema, fixedOutcomes, nodeSchema } from './common';
import type { Kind, OutcomeRules } from './kind';
import { asSent, outcomeKeys } from './kind';

/** The user types an address or cancels (`canceled`: this kind's own spelling). */
const OUTCOMES = {
  emailEntered: { decidedBy: 'user', failing: false },
  canceled: { decidedBy: 'user', failing: true },
} as const satisfies OutcomeRules;

/** Collects the user's email address. */
export const EnterEmailNodeSchema = nodeSchema(
  'enter_email',
  {
    prompt: Type.Optional(PromptSchema('What the avatar says as the email field appears.')),
    outcomes: fixedOutcomes(outcomeKeys(OUTCOMES)),
  },
  "Collects the user's email address.",
);
export type EnterEmailNode = Static<typeof EnterEmailNodeSchema>;

/** What an enter_email node's report holds: the address typed (on `emailEntered`). */
export interface EnterEmailReport {
  email?: string;
}

/** The enter_email kind. */
export const enterEmail = {
  type: 'enter_email',
  schema: EnterEmailNodeSchema,
  defaults: asSent<EnterEmailNode>(),
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: EnterEmailReport },
} as const satisfies Kind<
  'enter_email',
  typeof EnterEmailNodeSchema,
  EnterEmailNode,
  EnterEmailReport
>;
