import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { SimilarityThresholdSchema, fixedOutcomes, nodeSchema } from './common';
import type { Kind, OutcomeRules } from './kind';
import { asSent, outcomeKeys } from './kind';

/** The server's face analysis finds the user among earlier verified sessions, or not. */
const OUTCOMES = {
  recognized: { decidedBy: 'analysis', failing: false },
  newUser: { decidedBy: 'analysis', failing: false },
  noFace: { decidedBy: 'analysis', failing: true },
} as const satisfies OutcomeRules;

/** 1:N face recognition against the account's earlier verified sessions. */
export const RecognitionNodeSchema = nodeSchema(
  'recognition',
  {
    similarityThreshold: Type.Optional(SimilarityThresholdSchema),
    outcomes: fixedOutcomes(outcomeKeys(OUTCOMES)),
  },
  "1:N face recognition against the account's earlier verified sessions, by clientReferenceId.",
);
export type RecognitionNode = Static<typeof RecognitionNodeSchema>;

/**
 * What a recognition node's report holds (docs/faces.md): the threshold; on `recognized` the
 * match's `clientReferenceId`, `sessionId`, `similarity` and `providedData`; on `newUser` how many
 * were `compared` and the `bestSimilarity`; on `noFace` the `reason` and `message`.
 */
export interface RecognitionReport {
  threshold: number;
  compared?: number;
  mediaId?: string;
  similarity?: number;
  bestSimilarity?: number | null;
  clientReferenceId?: string;
  sessionId?: string;
  providedData?: Record<string, unknown>;
  reason?: string;
  message?: string;
}

/** The recognition kind. */
export const recognition = {
  type: 'recognition',
  schema: RecognitionNodeSchema,
  defaults: asSent<RecognitionNode>(),
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: RecognitionReport },
} as const satisfies Kind<
  'recognition',
  typeof RecognitionNodeSchema,
  RecognitionNode,
  RecognitionReport
>;
