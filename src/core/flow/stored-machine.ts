import { COMPUTED_TYPES, computedRoutes } from './computed-routes';
import type { FlowNode } from './kinds';
import type { FlowMachine, Route, Routing, StartAt } from './machine-build';
import { buildFlowMachine, freeKey } from './machine-build';
import { flowSetupFor } from './machine-setup';

// The light path to a flow machine, for the hosted page's first chunk: it imports neither the
// kinds (their TypeBox schemas) nor validation. A stored flow was validated when its session was
// made, so its own shape says how each node routes: `outcome` (start), an `outcomes` array
// (a conditional kind), an `outcomes` object (a fixed kind), its own fields (field_condition,
// external_call: computed-routes.ts), nothing (end).

type Outcomes = readonly { id: string; targetNodeId?: string }[] | Record<string, string>;

const outcomesOf = (node: FlowNode): Outcomes | undefined =>
  (node as { outcomes?: Outcomes }).outcomes;

const STORED_ROUTING: Routing = {
  routes(node) {
    const outcomes = outcomesOf(node);
    const route = (outcome: string, target: string | undefined): Route => ({
      outcome,
      target,
      step: { nodeId: node.id, type: node.type, outcome },
    });
    if (COMPUTED_TYPES.has(node.type))
      return computedRoutes(node).map(([outcome, target]) => route(outcome, target));
    if (Array.isArray(outcomes)) return outcomes.map((o) => route(o.id, o.targetNodeId));
    return Object.entries(outcomes ?? {}).map(([key, target]) => route(key, target));
  },
  // A fixed kind's outcomes without a target are left out of the stored flow; only the server,
  // which knows the kinds, names them, and each ends the session incomplete.
  othersEndIncomplete: (node) => !COMPUTED_TYPES.has(node.type) && !Array.isArray(outcomesOf(node)),
  input: (node) => node,
};

/**
 * The machine of a flow already validated (a session's stored flow), built without the kinds:
 * the states, actors, events and final states of `compileFlow`, with two differences that the
 * kinds would be needed for. A fixed outcome the flow leaves without a target is not known by
 * name (any outcome other than the routed ones ends the session incomplete), and the node actors
 * receive the node as stored (no defaults) and the path no data_validation `result`. With `at`,
 * the machine starts at that node with that path (a page following the server from there).
 * Not cached: the page builds one per session.
 *
 * @example
 * const machine = storedFlowMachine(session.flow);
 * createActor(machine.provide({ actors: { permissions: myActor } })).start();
 */
export function storedFlowMachine(flow: readonly FlowNode[], at?: StartAt): FlowMachine {
  const ids = new Set<string>();
  const types = new Set<string>();
  for (const node of flow) {
    ids.add(node.id);
    if (node.type !== 'start' && node.type !== 'end') types.add(node.type);
  }
  return buildFlowMachine(flowSetupFor([...types]), flow, STORED_ROUTING, {
    incompleteKey: freeKey('__incomplete', ids),
    ...(at ? { at } : {}),
  });
}
