import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import {
  MaxAttemptsSchema,
  PromptSchema,
  SimilarityThresholdSchema,
  fixedOutcomes,
  nodeSchema,
} from './common';
import type { Kind, OutcomeRules } from './kind';
import { outcomeKeys } from './kind';

/** The server's analysis compares the captured face with the reference; the user may cancel. */
const OUTCOMES = {
  passed: { decidedBy: 'analysis', failing: false },
  notPassed: { decidedBy: 'analysis', failing: true },
  cancelled: { decidedBy: 'user', failing: true },
  error: { decidedBy: 'analysis', failing: true },
} as const satisfies OutcomeRules;

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
    requireAILivenessCheck: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'When true the face passes only if the passive (AI) liveness analysis of the capture ' +
          'finds a live person; the node report says so in aiLivenessCheckPassed.',
      }),
    ),
    enableSound: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'A short tone when the capture starts and when it is done.',
      }),
    ),
    enableHaptics: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'A short vibration, on devices that have one, when the capture is done.',
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
    maxAttempts: Type.Optional(MaxAttemptsSchema),
    outcomes: fixedOutcomes(outcomeKeys(OUTCOMES)),
  },
  'Captures the face and compares it with a reference image.',
);
export type FaceScanNode = Static<typeof FaceScanNodeSchema>;

export const FACE_SCAN_DEFAULTS = {
  requireLivenessChallenge: false,
  requireAILivenessCheck: false,
  enableSound: true,
  enableHaptics: true,
  maxAttempts: FLOW_LIMITS.cameraAttempts.default,
} as const;
export type ResolvedFaceScanNode = FaceScanNode & {
  requireLivenessChallenge: boolean;
  requireAILivenessCheck: boolean;
  enableSound: boolean;
  enableHaptics: boolean;
  maxAttempts: number;
};

/**
 * The node with every option filled in (the threshold stays out: the server's measured one applies).
 * @example faceScanWithDefaults({ id: 'f', type: 'face_scan', outcomes: {} }).requireLivenessChallenge // false
 */
export function faceScanWithDefaults(node: FaceScanNode): ResolvedFaceScanNode {
  return { ...FACE_SCAN_DEFAULTS, ...node };
}

/**
 * What a face_scan node's report holds (docs/faces.md): the attempt and how it ended, the
 * challenges asked, the liveness outcome, the threshold and reference, the `similarity` when
 * compared, `reason` / `message` when not passed, and `capture`: the liveness analysis' report.
 */
export interface FaceScanReport {
  attemptId?: string;
  ended?: string;
  challenges?: number;
  liveness?: { outcome: string; inconclusiveReason?: string };
  /** With `requireAILivenessCheck`: whether the passive liveness analysis found a live person. */
  aiLivenessCheckPassed?: boolean;
  threshold?: number;
  reference?: Record<string, unknown>;
  similarity?: number;
  reason?: string;
  message?: string;
  capture?: Record<string, unknown>;
}

/** The face_scan kind. */
export const faceScan = {
  type: 'face_scan',
  schema: FaceScanNodeSchema,
  defaults: faceScanWithDefaults,
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: FaceScanReport },
} as const satisfies Kind<
  'face_scan',
  typeof FaceScanNodeSchema,
  ResolvedFaceScanNode,
  FaceScanReport
>;
