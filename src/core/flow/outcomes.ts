import type { FlowNode } from './nodes';
import { FIXED_OUTCOMES, isFixedOutcomeType } from './node-types';

/**
 * The outcomes a node can select: every key of a fixed-outcome type (routed or not), the outcome
 * ids of a conversation or data_validation node, none for start and end (start moves on by itself).
 * @example outcomesOf({ id: 'p', type: 'permissions', outcomes: {} }) // ['permissionsGranted', 'permissionsDenied']
 */
export function outcomesOf(node: FlowNode): string[] {
  if (node.type === 'conversation' || node.type === 'data_validation')
    return node.outcomes.map((o) => o.id);
  if (isFixedOutcomeType(node.type)) return [...FIXED_OUTCOMES[node.type]];
  return [];
}

/**
 * Where each of a node's outcomes leads: a node id, or `undefined` for a fixed outcome left
 * without a target (the session then ends incomplete).
 * @example targetsOf({ id: 'p', type: 'permissions', outcomes: { permissionsGranted: 'x' } })
 * // [['permissionsGranted', 'x'], ['permissionsDenied', undefined]]
 */
export function targetsOf(node: FlowNode): [outcome: string, target: string | undefined][] {
  if (node.type === 'conversation' || node.type === 'data_validation')
    return node.outcomes.map((o) => [o.id, o.targetNodeId]);
  if (isFixedOutcomeType(node.type)) {
    const routes = (node as { outcomes: Partial<Record<string, string>> }).outcomes;
    return FIXED_OUTCOMES[node.type].map((key) => [key, routes[key]]);
  }
  return [];
}

/**
 * Outcomes of fixed-outcome nodes that fail or leave undecided the check they make; one of them on
 * the path means the session is not verified. Conversation outcome ids are the integrator's own
 * routing and never count; a data_validation step counts by its check result (see isVerified).
 */
export const FAILING_OUTCOMES: ReadonlySet<string> = new Set([
  'noFace',
  'deepfakeDetected',
  'inconclusive',
  'userCancelled',
  'scanTimeout',
  'notPassed',
  'cancelled',
  'canceled',
  'error',
  'noMatch',
  'imageUnavailable',
  'delivery_failed',
  'failed_unverified',
  'permissionsDenied',
]);
