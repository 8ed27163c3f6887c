import type { advanceFlow, startFlow } from '../../core/flow';
import type { FlowNode, Position } from '../api/types';

/** The parts of `src/core/flow` the replay uses. */
export interface FlowCore {
  startFlow: typeof startFlow;
  advanceFlow: typeof advanceFlow;
}

/** Where the page stands after the server answered, and whether the flow machine agreed. */
export interface Followed {
  /** The node whose screen shows; null once the flow has ended. */
  node: FlowNode | null;
  /**
   * True when the machine compiled from the flow, replaying the server's path, reached the node
   * the server named; false when it did not; null when the flow core is not loaded yet.
   */
  agreed: boolean | null;
}

/**
 * Replays the server's path through the machine compiled from the flow (`startFlow` and
 * `advanceFlow` of `src/core/flow`, which run XState's pure transitions) and shows the node it
 * reaches. The server is the authority: when the replay disagrees (a flow the page cannot replay,
 * a server that routed differently), the page follows `position.nodeId` and records it. Without
 * the core (its chunk still loading) the page follows the server and checks once it arrives.
 *
 * @example
 * followFlow(core, flow, { nodeId: 'mail', nodeType: 'enter_email', status: 'active', path: [...] });
 * // { node: { id: 'mail', type: 'enter_email', … }, agreed: true }
 */
export function followFlow(
  core: FlowCore | null,
  flow: readonly FlowNode[],
  position: Position,
): Followed {
  const byId = (id: string | null) =>
    id === null ? null : (flow.find((n) => n.id === id) ?? null);
  const serverId = position.status === 'active' ? position.nodeId : null;
  const serverNode = byId(serverId);
  if (!core) return { node: serverNode, agreed: null };
  let local: string | null;
  try {
    let at = core.startFlow(flow as FlowNode[]);
    for (const step of position.path) {
      if (step.type === 'start' || step.type === 'end') continue;
      const next = core.advanceFlow(flow as FlowNode[], at, {
        nodeId: step.nodeId,
        outcome: step.outcome,
      });
      if (!next.ok) return { node: serverNode, agreed: false };
      at = next.position;
    }
    local = at.status === 'active' ? at.nodeId : null;
    if (at.status !== position.status) return { node: serverNode, agreed: false };
  } catch {
    return { node: serverNode, agreed: false };
  }
  return local === serverId
    ? { node: byId(local), agreed: true }
    : { node: serverNode, agreed: false };
}
