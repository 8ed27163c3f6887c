import type { SnapshotFrom } from 'xstate';
import type { Flow, FlowNode } from './kinds';
import { nodeDefaults, WORK_NODE_TYPES } from './kinds';
import { checkResultOf } from './kinds/data_validation';
import type { FlowMachine, Routing } from './machine-build';
import { buildFlowMachine, freeKey } from './machine-build';
import { flowSetupFor } from './machine-setup';
import { targetsOf } from './outcomes';
import type { PathStep } from './position';
import { FlowValidationError } from './problems';
import { validateFlow } from './validate';

export { targetOf } from './machine-build';
export type { FlowMachine } from './machine-build';

/** The named actors, actions and guards every compiled flow machine refers to. */
export const flowSetup = flowSetupFor(WORK_NODE_TYPES);

/** The outcomes of each node as its kind says: every key of a fixed kind, routed or not. */
const KIND_ROUTING: Routing = {
  routes: (node) =>
    targetsOf(node).map(([outcome, target], index) => {
      const step: PathStep = { nodeId: node.id, type: node.type, outcome };
      if (node.type === 'data_validation') {
        const result = checkResultOf(node.outcomes, index);
        if (result) step.result = result;
      }
      return { outcome, target, step };
    }),
  // The defaults are filled in when the node is entered, not for every node at compile time.
  input: (node: FlowNode) => nodeDefaults(node),
};

function buildMachine(flow: Flow, incompleteKey: string): FlowMachine {
  return buildFlowMachine(flowSetup, flow, KIND_ROUTING, { incompleteKey });
}

export type FlowSnapshot = SnapshotFrom<FlowMachine>;

/** A compiled flow with what reading positions needs. */
export interface CompiledFlow {
  machine: FlowMachine;
  nodes: ReadonlyMap<string, FlowNode>;
  /** The key of the final state reached by an outcome that has no target. */
  incompleteKey: string;
}

/** Each step reads positions through its flow's machine; the store hands back one flow object. */
const byObject = new WeakMap<Flow, CompiledFlow>();

/**
 * The compiled form of a flow, built once per flow object. Throws FlowValidationError for an
 * invalid flow.
 * @example compiled(flow).machine
 */
export function compiled(flow: Flow): CompiledFlow {
  const cached = byObject.get(flow);
  if (cached) return cached;
  const problems = validateFlow(flow);
  if (problems.length > 0) throw new FlowValidationError(problems);
  const nodes = new Map(flow.map((node) => [node.id, node]));
  const incompleteKey = freeKey('__incomplete', new Set(nodes.keys()));
  const entry = { machine: buildMachine(flow, incompleteKey), nodes, incompleteKey };
  byObject.set(flow, entry);
  return entry;
}

/**
 * Turns a valid flow into an XState v5 machine made with `setup()`: one state per node (the key
 * is the node id), each node's work an actor named by its type (`conversation`, `face_scan`, …;
 * start and end are the actions `start` and `end`), one guarded transition per outcome on the
 * event `{ type: 'outcome', outcome }`, final states for end nodes (tag `complete`) and for
 * outcomes without a target (tag `incomplete`). The context records the path. Cached per flow.
 * @example
 * const actor = createActor(compileFlow(flow).provide({ actors: { face_scan: myFaceScan } }));
 * actor.start();
 * actor.send({ type: 'outcome', outcome: 'passed' });
 */
export function compileFlow(flow: Flow): FlowMachine {
  return compiled(flow).machine;
}
