import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { PromptSchema, fixedOutcomes, nodeSchema } from './common';
import { FIXED_OUTCOMES } from '../node-types';

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
    outcomes: fixedOutcomes(FIXED_OUTCOMES.permissions),
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
