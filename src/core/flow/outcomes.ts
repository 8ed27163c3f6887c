import type { FlowNode } from './kinds';
import { computedRoutes } from './computed-routes';
import { FIXED_OUTCOMES, isComputedType, isConditionalNode, isFixedOutcomeNode } from './kinds';

/**
 * The outcomes a node can select: every key of a fixed-outcome type (routed or not), the outcome
 * ids of a conversation or data_validation node, the computed ones of field_condition and
 * external_call, none for start and end (start moves on by itself).
 * @example outcomesOf({ id: 'p', type: 'permissions', outcomes: {} }) // ['permissionsGranted', 'permissionsDenied']
 */
export function outcomesOf(node: FlowNode): string[] {
  return targetsOf(node).map(([outcome]) => outcome);
}

/**
 * Where each of a node's outcomes leads: a node id, or `undefined` for a fixed outcome left
 * without a target (the session then ends incomplete).
 * @example targetsOf({ id: 'p', type: 'permissions', outcomes: { permissionsGranted: 'x' } })
 * // [['permissionsGranted', 'x'], ['permissionsDenied', undefined]]
 */
export function targetsOf(node: FlowNode): [outcome: string, target: string | undefined][] {
  if (isConditionalNode(node)) return node.outcomes.map((o) => [o.id, o.targetNodeId]);
  if (isFixedOutcomeNode(node)) {
    const routes: Partial<Record<string, string>> = node.outcomes;
    return FIXED_OUTCOMES[node.type].map((key) => [key, routes[key]]);
  }
  if (isComputedType(node.type)) return computedRoutes(node);
  return [];
}
