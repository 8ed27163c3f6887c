import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { SimilarityThresholdSchema, fixedOutcomes, nodeSchema } from './common';
import { FIXED_OUTCOMES } from '../node-types';

/** 1:N face recognition against the account's earlier verified sessions. */
export const RecognitionNodeSchema = nodeSchema(
  'recognition',
  {
    similarityThreshold: Type.Optional(SimilarityThresholdSchema),
    outcomes: fixedOutcomes(FIXED_OUTCOMES.recognition),
  },
  "1:N face recognition against the account's earlier verified sessions, by clientReferenceId.",
);
export type RecognitionNode = Static<typeof RecognitionNodeSchema>;
