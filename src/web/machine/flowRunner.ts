import { createActor, fromCallback } from 'xstate';
import type { Actor } from 'xstate';
import type { NodeActors } from '../../core/flow';
// The light path of the flow core, not its index: the index brings the kinds' TypeBox schemas,
// which stay out of the first screen's chunk (docs/hosted-page.md, "Size and speed").
import type { FlowMachine, RouteTaken, StartAt } from '../../core/flow/machine-build';
import { nodeRoutes } from '../../core/flow/machine-build';
import { storedFlowMachine } from '../../core/flow/stored-machine';
import type { FlowNode, Position } from '../api/types';
import { PAGE_ACTORS } from '../nodes';

/** Where the flow machine stands once it has followed a position of the server. */
export interface FlowAt {
  /** The node whose screen shows; null once the flow has ended. */
  nodeId: string | null;
  status: Position['status'];
  /** Where each outcome of the node leads, from the machine's transitions. */
  routes: RouteTaken[];
  /**
   * The machine did not reach the server's position by the server's own outcomes (it should
   * not happen): the page follows the server, and the machine starts again from there.
   */
  restarted: boolean;
}

/** The machine of a session's flow, following the server's positions. */
export interface FlowRunner {
  /** Tells the machine a position of the server and says where the machine then stands. */
  follow(position: Position): FlowAt;
  stop(): void;
}

type FlowActor = Actor<FlowMachine>;

/** Whether the machine stands where the server's position says. */
function agrees(actor: FlowActor, position: Position): boolean {
  const snapshot = actor.getSnapshot();
  if (snapshot.status === 'done')
    return position.status !== 'active' && snapshot.hasTag(position.status);
  return (
    snapshot.status === 'active' &&
    position.status === 'active' &&
    snapshot.value === position.nodeId
  );
}

/**
 * Runs the machine built from a session's stored flow (`storedFlowMachine`), each node state
 * invoking the actor of its kind (`PAGE_ACTORS`, supplied with `.provide()`). Each position the
 * server answers with is told to the current node's actor, which ends with the outcome the
 * server recorded for its node; the machine moves on, and the next node's actor is told in turn
 * (a resumed session or one answer that passed several nodes). The server stays the authority:
 * where the machine does not end up on the server's node (it should not happen), the page
 * follows the server and the machine starts again at the server's node with its path.
 *
 * @example
 * const runner = flowRunner(session.flow);
 * runner.follow(position); // { nodeId: 'mail', status: 'active', routes: […], restarted: false }
 */
export function flowRunner(
  flow: readonly FlowNode[],
  actors: NodeActors = PAGE_ACTORS,
): FlowRunner {
  const machineAt = (at?: StartAt) => storedFlowMachine(flow, at).provide({ actors });
  let machine: FlowMachine;
  let actor: FlowActor | null = null;
  try {
    machine = machineAt();
    actor = createActor(machine).start();
  } catch {
    // No machine to follow with: the first position starts one at the server's node.
  }

  const tell = (running: FlowActor, position: Position) => {
    // Acyclic: at most one move per node.
    for (let moves = 0; moves < flow.length; moves++) {
      const before = running.getSnapshot();
      const child = Object.values(before.children)[0];
      if (!child) return;
      child.send({ type: 'position', position });
      if (running.getSnapshot() === before) return;
    }
  };

  /** Starts the machine at the server's node; null when the position names none to start at. */
  const startAt = (position: Position): FlowActor | null => {
    const node = flow.find((n) => n.id === position.nodeId);
    if (position.status !== 'active' || !node || node.type === 'end') return null;
    machine = machineAt({ nodeId: node.id, path: position.path });
    return createActor(machine).start();
  };

  const standing = (running: FlowActor): FlowAt => {
    const snapshot = running.getSnapshot();
    if (snapshot.status === 'done') {
      const status = snapshot.hasTag('complete') ? 'complete' : 'incomplete';
      return { nodeId: null, status, routes: [], restarted: false };
    }
    const nodeId = String(snapshot.value);
    return { nodeId, status: 'active', routes: nodeRoutes(machine, nodeId), restarted: false };
  };

  return {
    follow(position) {
      try {
        if (actor) {
          tell(actor, position);
          if (agrees(actor, position)) return standing(actor);
          actor.stop();
        }
        actor = startAt(position);
      } catch {
        // A machine that cannot follow is dropped; the next position starts one again.
        actor?.stop();
        actor = null;
      }
      const active = position.status === 'active';
      const nodeId = active ? position.nodeId : null;
      const routes = actor && nodeId !== null ? nodeRoutes(machine, nodeId) : [];
      return { nodeId, status: position.status, routes, restarted: true };
    },
    stop() {
      actor?.stop();
      actor = null;
    },
  };
}

/** What the page machine's `flow` actor starts with. */
export interface RunFlowInput {
  flow: readonly FlowNode[];
  position: Position;
}

/** A position of the server, which the page machine passes on to its `flow` actor. */
export interface PositionToFollow {
  type: 'POSITION';
  position: Position;
}

/** What the `flow` actor tells the page machine after each position. */
export interface FlowAtEvent {
  type: 'FLOW_AT';
  at: FlowAt;
}

/** Sent before `FLOW_AT` when the flow machine did not reach the server's position. */
export interface FlowRestartedEvent {
  type: 'FLOW_RESTARTED';
  at: FlowAt;
  position: Position;
}

/**
 * The page machine's `flow` actor: runs the session's flow machine (`flowRunner`) from the
 * server's position, follows each position passed on to it, and tells the page machine where
 * the flow machine stands (`FLOW_AT`) each time, the first time as it starts; before it, when
 * the machine did not reach the server's position, `FLOW_RESTARTED`.
 *
 * @example
 * invoke: { id: 'flow', src: 'flow', input: ({ context }) => ({ flow, position }) }
 */
export const runFlow = fromCallback<PositionToFollow, RunFlowInput>(
  ({ input, receive, sendBack }) => {
    const runner = flowRunner(input.flow);
    const report = (position: Position) => {
      const at = runner.follow(position);
      if (at.restarted)
        sendBack({ type: 'FLOW_RESTARTED', at, position } satisfies FlowRestartedEvent);
      sendBack({ type: 'FLOW_AT', at } satisfies FlowAtEvent);
    };
    report(input.position);
    receive((event) => report(event.position));
    return () => runner.stop();
  },
);
