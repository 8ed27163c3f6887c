import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import { BoundedInteger, fixedOutcomes, nodeSchema } from './common';
import { FIXED_OUTCOMES } from '../node-types';

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
    outcomes: fixedOutcomes(FIXED_OUTCOMES.liveness_detection),
  },
  'Anti-spoofing check with an active challenge sequence.',
);
export type LivenessDetectionNode = Static<typeof LivenessDetectionNodeSchema>;

export const LIVENESS_DETECTION_DEFAULTS = {
  challenges: FLOW_LIMITS.challenges.default,
  timeoutSeconds: FLOW_LIMITS.livenessTimeoutSeconds.default,
} as const;
export type ResolvedLivenessDetectionNode = LivenessDetectionNode & {
  challenges: number;
  timeoutSeconds: number;
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
