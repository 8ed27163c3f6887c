import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { PromptSchema, fixedOutcomes, nodeSchema } from './common';
import { FIXED_OUTCOMES } from '../node-types';

/** Collects the user's email address. */
export const EnterEmailNodeSchema = nodeSchema(
  'enter_email',
  {
    prompt: Type.Optional(PromptSchema('What the avatar says as the email field appears.')),
    outcomes: fixedOutcomes(FIXED_OUTCOMES.enter_email),
  },
  "Collects the user's email address.",
);
export type EnterEmailNode = Static<typeof EnterEmailNodeSchema>;
