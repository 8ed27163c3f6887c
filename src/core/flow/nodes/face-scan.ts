import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import { PromptSchema, SimilarityThresholdSchema, fixedOutcomes, nodeSchema } from './common';
import { FIXED_OUTCOMES } from '../node-types';

/** Captures the face and compares it with a reference image. */
export const FaceScanNodeSchema = nodeSchema(
  'face_scan',
  {
    captureInstructions: Type.Optional(
      PromptSchema('Shown and spoken while the face is captured.'),
    ),
    requireLivenessChallenge: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'When true the capture includes an active challenge sequence.',
      }),
    ),
    referenceImageKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: FLOW_LIMITS.maxDataKeyLength,
        description:
          'The providedData key holding the reference (a data URL or https URL). ' +
          'Left out, the last document photo of the session is the reference.',
      }),
    ),
    similarityThreshold: Type.Optional(SimilarityThresholdSchema),
    outcomes: fixedOutcomes(FIXED_OUTCOMES.face_scan),
  },
  'Captures the face and compares it with a reference image.',
);
export type FaceScanNode = Static<typeof FaceScanNodeSchema>;

export const FACE_SCAN_DEFAULTS = { requireLivenessChallenge: false } as const;
export type ResolvedFaceScanNode = FaceScanNode & { requireLivenessChallenge: boolean };

/**
 * The node with every option filled in (the threshold stays out: the server's measured one applies).
 * @example faceScanWithDefaults({ id: 'f', type: 'face_scan', outcomes: {} }).requireLivenessChallenge // false
 */
export function faceScanWithDefaults(node: FaceScanNode): ResolvedFaceScanNode {
  return { ...FACE_SCAN_DEFAULTS, ...node };
}
