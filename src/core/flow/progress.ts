import { COMPUTED_TYPES, computedRoutes } from './computed-routes';
import type { FlowNode, NodeType } from './kinds';
import type { FlowPosition } from './position';

// Reads each node's targets from its stored shape (as `storedFlowMachine` does) so that the
// hosted page can count steps without the kinds' TypeBox schemas.

/**
 * Node types the user never sees as a step of their own: the start (passed at once), the end
 * (the closing screen, not a step), data_validation and field_condition (checks the server
 * makes unseen) and external_call (a request the server makes).
 * Every other type draws a screen and counts.
 */
export const UNSEEN_NODE_TYPES: ReadonlySet<NodeType> = new Set<NodeType>([
  'start',
  'end',
  'data_validation',
  'field_condition',
  'external_call',
]);

/** Where the user stands: step `step` of `total`, both counted over nodes with a screen. */
export interface FlowProgress {
  step: number;
  total: number;
}

const targetsOf = (node: FlowNode): string[] => {
  if (COMPUTED_TYPES.has(node.type))
    return computedRoutes(node).flatMap(([, target]) => (target ? [target] : []));
  const shape = node as { outcome?: string; outcomes?: unknown };
  if (typeof shape.outcome === 'string') return [shape.outcome];
  const outcomes = shape.outcomes;
  if (Array.isArray(outcomes))
    return outcomes.flatMap((o: { targetNodeId?: string }) =>
      o.targetNodeId ? [o.targetNodeId] : [],
    );
  if (outcomes && typeof outcomes === 'object')
    return Object.values(outcomes).filter((t): t is string => typeof t === 'string');
  return [];
};

/**
 * The most screens left on any route from a node, itself included. Flows are acyclic (the
 * validator refuses loops); a loop met anyway adds nothing rather than running forever.
 */
function longestFrom(flow: readonly FlowNode[], from: string): number {
  const byId = new Map(flow.map((n) => [n.id, n]));
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const walk = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    if (!node || visiting.has(id)) return 0;
    visiting.add(id);
    const after = Math.max(0, ...targetsOf(node).map(walk));
    visiting.delete(id);
    const count = after + (UNSEEN_NODE_TYPES.has(node.type) ? 0 : 1);
    memo.set(id, count);
    return count;
  };
  return walk(from);
}

/**
 * "Step k of n" for a session: k counts the screens passed and the current one; n adds the
 * longest route of screens still possible from the current node, so it can only shrink as
 * branches close. Null when there is no step to show (the flow has ended, or no screen is left).
 *
 * @example
 * const flow = [
 *   { id: 's', type: 'start', outcome: 'p' },
 *   { id: 'p', type: 'permissions', outcomes: { permissionsGranted: 'f' } },
 *   { id: 'f', type: 'face_scan', outcomes: { passed: 'e' } },
 *   { id: 'e', type: 'end' },
 * ];
 * flowProgress(flow, { nodeId: 'f', nodeType: 'face_scan', status: 'active',
 *   path: [{ nodeId: 'p', type: 'permissions', outcome: 'permissionsGranted' }] });
 * // { step: 2, total: 2 }
 */
export function flowProgress(
  flow: readonly FlowNode[],
  position: Pick<FlowPosition, 'nodeId' | 'status' | 'path'>,
): FlowProgress | null {
  if (position.status !== 'active' || position.nodeId === null) return null;
  const done = position.path.filter((p) => !UNSEEN_NODE_TYPES.has(p.type)).length;
  const total = done + longestFrom(flow, position.nodeId);
  if (total === done) return null;
  return { step: done + 1, total };
}
