import { initialTransition, transition } from 'xstate';
import type { CompiledFlow, FlowSnapshot } from './compile';
import { compiled, targetOf } from './compile';
import type { FlowEvent } from './machine-setup';
import type { Flow } from './kinds';
import { outcomesOf } from './outcomes';
import type { AdvanceResult, FlowPosition } from './position';

function positionOf(flow: CompiledFlow, snapshot: FlowSnapshot): FlowPosition {
  const path = snapshot.context.path;
  if (snapshot.status === 'done') {
    const status = snapshot.hasTag('complete') ? 'complete' : 'incomplete';
    return { nodeId: null, nodeType: null, status, path };
  }
  const nodeId = snapshot.value as string;
  return { nodeId, nodeType: flow.nodes.get(nodeId)?.type ?? null, status: 'active', path };
}

/**
 * Where a new session stands: past the start node, on the first real node (or already finished
 * when the start leads straight to an end).
 * @example startFlow(flow) // { nodeId: 'permissions', nodeType: 'permissions', status: 'active', path: [] }
 */
export function startFlow(flow: Flow): FlowPosition {
  const entry = compiled(flow);
  const [snapshot] = initialTransition(entry.machine);
  return positionOf(entry, snapshot);
}

/**
 * Why `nodeId` may not act at `position`: the flow has ended, or another node is current; null
 * when it is the current node. The one place the "not the current node" rule is written: the
 * machine's step below and the server's step gateway both ask it.
 * @example notCurrent(position, 'email_code')
 * // { ok: false, reason: 'not_current_node', message: "node 'email_code' is not the current node; the current node is 'permissions'" }
 */
export function notCurrent(
  position: FlowPosition,
  nodeId: string,
): Extract<AdvanceResult, { ok: false }> | null {
  if (position.status !== 'active' || position.nodeId === null)
    return {
      ok: false,
      reason: 'finished',
      message: `the flow has already ended (${position.status}); nothing can follow`,
    };
  if (nodeId !== position.nodeId)
    return {
      ok: false,
      reason: 'not_current_node',
      message: `node '${nodeId}' is not the current node; the current node is '${position.nodeId}'`,
    };
  return null;
}

/**
 * Moves a position by one node's outcome, checked by the compiled machine's pure transition
 * function: only the current node, only an outcome that node has, nothing after the end.
 * @example advanceFlow(flow, position, { nodeId: 'permissions', outcome: 'permissionsGranted' })
 * // { ok: true, position: { nodeId: 'liveness', … } }
 */
export function advanceFlow(
  flow: Flow,
  position: FlowPosition,
  step: { nodeId: string; outcome: string },
): AdvanceResult {
  const refused = notCurrent(position, step.nodeId);
  if (refused) return refused;
  // The step's node is the position's from here on.
  const nodeId = step.nodeId;
  const entry = compiled(flow);
  const node = entry.nodes.get(nodeId);
  if (!node || node.type === 'start' || node.type === 'end')
    return {
      ok: false,
      reason: 'not_current_node',
      message: `the position names '${nodeId}', which is not a node that selects outcomes in this flow`,
    };
  const snapshot = entry.machine.resolveState({
    value: targetOf(nodeId),
    context: { path: position.path },
  });
  const event: FlowEvent = { type: 'outcome', outcome: step.outcome };
  if (!snapshot.can(event))
    return {
      ok: false,
      reason: 'unknown_outcome',
      message: `'${step.outcome}' is not an outcome of the ${node.type} node '${node.id}'; its outcomes are ${outcomesOf(node).join(', ')}`,
    };
  const [next] = transition(entry.machine, snapshot, event);
  return { ok: true, position: positionOf(entry, next) };
}
