import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { PromptSchema, fixedOutcomes, nodeSchema } from './common';
import type { Kind, OutcomeRules } from './kind';
import { outcomeKeys } from './kind';

/** The user allows the devices or refuses them; the page reports which. */
const OUTCOMES = {
  permissionsGranted: { decidedBy: 'user', failing: false },
  permissionsDenied: { decidedBy: 'user', failing: true },
} as const satisfies OutcomeRules;

/** Requests camera and microphone permission. */
export const PermissionsNodeSchema = nodeSchema(
  'permissions',
  {
    prompt: Type.Optional(PromptSchema('What the avatar says while asking for permission.')),
    permissions: Type.Optional(
      Type.Object(
        {
          camera: Type.Optional(Type.Boolean({ default: true })),
          microphone: Type.Optional(Type.Boolean({ default: true })),
        },
        { additionalProperties: false, description: 'Which devices to ask for (both by default).' },
      ),
    ),
    outcomes: fixedOutcomes(outcomeKeys(OUTCOMES)),
  },
  'Requests camera and microphone permission.',
);
export type PermissionsNode = Static<typeof PermissionsNodeSchema>;
export type ResolvedPermissionsNode = PermissionsNode & {
  permissions: { camera: boolean; microphone: boolean };
};

/**
 * The node with both devices filled in.
 * @example permissionsWithDefaults({ id: 'p', type: 'permissions', outcomes: {} }).permissions // { camera: true, microphone: true }
 */
export function permissionsWithDefaults(node: PermissionsNode): ResolvedPermissionsNode {
  return {
    ...node,
    permissions: {
      camera: node.permissions?.camera ?? true,
      microphone: node.permissions?.microphone ?? true,
    },
  };
}

/** What a permissions node's report holds: the devices the page asked for. */
export interface PermissionsReport {
  camera: boolean;
  microphone: boolean;
}

/** The permissions kind. */
export const permissions = {
  type: 'permissions',
  schema: PermissionsNodeSchema,
  defaults: permissionsWithDefaults,
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: PermissionsReport },
} as const satisfies Kind<
  'permissions',
  typeof PermissionsNodeSchema,
  ResolvedPermissionsNode,
  PermissionsReport
>;
