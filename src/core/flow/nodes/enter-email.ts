import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { PromptSchema, fixedOutcomes, nodeSchema } from './common';

/** Collects the user's email address. */
export const EnterEmailNodeSchema = nodeSchema(
  'enter_email',
  {
    prompt: Type.Optional(PromptSchema('What the avatar says as the email field appears.')),
    outcomes: fixedOutcomes(['emailEntered', 'canceled']),
  },
  "Collects the user's email address.",
);
export type EnterEmailNode = Static<typeof EnterEmailNodeSchema>;
