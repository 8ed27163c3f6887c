import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import { BoundedInteger, MaxAttemptsSchema, fixedOutcomes, nodeSchema } from './common';
import type { Kind, OutcomeRules } from './kind';
import { outcomeKeys } from './kind';

/** Decided by the server's analysis of the frames the page uploaded. */
const OUTCOMES = {
  livenessDetected: { decidedBy: 'analysis', failing: false },
  deepfakeDetected: { decidedBy: 'analysis', failing: true },
  noFace: { decidedBy: 'analysis', failing: true },
  inconclusive: { decidedBy: 'analysis', failing: true },
} as const satisfies OutcomeRules;

/** Anti-spoofing: the user follows a random sequence of head movements on camera. */
export const LivenessDetectionNodeSchema = nodeSchema(
  'liveness_detection',
  {
    challenges: Type.Optional(
      BoundedInteger(FLOW_LIMITS.challenges, 'How many movements the user is asked to make.'),
    ),
    timeoutSeconds: Type.Optional(
      BoundedInteger(
        FLOW_LIMITS.livenessTimeoutSeconds,
        'Time allowed before the node ends inconclusive (timeout).',
      ),
    ),
    maxAttempts: Type.Optional(MaxAttemptsSchema),
    outcomes: fixedOutcomes(outcomeKeys(OUTCOMES)),
  },
  'Anti-spoofing check with an active challenge sequence.',
);
export type LivenessDetectionNode = Static<typeof LivenessDetectionNodeSchema>;

export const LIVENESS_DETECTION_DEFAULTS = {
  challenges: FLOW_LIMITS.challenges.default,
  timeoutSeconds: FLOW_LIMITS.livenessTimeoutSeconds.default,
  maxAttempts: FLOW_LIMITS.cameraAttempts.default,
} as const;
export type ResolvedLivenessDetectionNode = LivenessDetectionNode & {
  challenges: number;
  timeoutSeconds: number;
  maxAttempts: number;
};

/**
 * The node with every option filled in.
 * @example livenessDetectionWithDefaults({ id: 'l', type: 'liveness_detection', outcomes: {} }).challenges // 3
 */
export function livenessDetectionWithDefaults(
  node: LivenessDetectionNode,
): ResolvedLivenessDetectionNode {
  return { ...LIVENESS_DETECTION_DEFAULTS, ...node };
}

/**
 * What a liveness_detection node's report holds (docs/liveness.md): the attempt, how it ended,
 * and the analysis' measurements (frames, faces per frame, challenges, scores, pose, motion,
 * brightness, the best frame, estimates).
 */
export interface LivenessDetectionReport {
  attemptId: string;
  ended: string;
  cameraUnavailable?: true;
  [measurement: string]: unknown;
}

/** The liveness_detection kind. */
export const livenessDetection = {
  type: 'liveness_detection',
  schema: LivenessDetectionNodeSchema,
  defaults: livenessDetectionWithDefaults,
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: LivenessDetectionReport },
} as const satisfies Kind<
  'liveness_detection',
  typeof LivenessDetectionNodeSchema,
  ResolvedLivenessDetectionNode,
  LivenessDetectionReport
>;
