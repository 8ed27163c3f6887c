import { assign, fromCallback, setup } from 'xstate';
import type { CallbackActorLogic } from 'xstate';
import type { NodeType, ResolvedNode, WorkNodeType } from './kinds';
import { WORK_NODE_TYPES } from './kinds';
import type { PathStep } from './position';

export type { WorkNodeType } from './kinds';

/**
 * The one event of a flow machine: the current node selected an outcome (a fixed key, or the
 * id of a conversation / data_validation outcome). Each transition is guarded by its outcome.
 */
export interface FlowEvent {
  type: 'outcome';
  outcome: string;
}

export interface FlowContext {
  /** The nodes passed so far, with the outcome each selected. */
  path: PathStep[];
}

/** What the actor of a node receives: the node with its defaults filled in. */
export interface NodeActorInput<T extends NodeType = NodeType> {
  node: ResolvedNode<T>;
}

/**
 * The default actor of every node type: it does nothing, so the node waits for an `outcome`
 * event sent to the machine from outside. The page replaces it with `.provide({ actors })`:
 * a callback actor that does the node's work and reports with `sendBack({ type: 'outcome', … })`.
 */
const waitForOutcome = () => fromCallback<FlowEvent, NodeActorInput>(() => undefined);

/** The actor of each kind whose work runs as one, named by its type. */
type NodeActors = { [T in WorkNodeType]: CallbackActorLogic<FlowEvent, NodeActorInput<T>> };

/** One default actor per work kind (every kind but the entry and exit ones). */
const nodeActors = Object.fromEntries(
  WORK_NODE_TYPES.map((type) => [type, waitForOutcome()]),
) as NodeActors;

/** The named actors, actions and guards every compiled flow machine refers to. */
export const flowSetup = setup({
  types: {
    context: {} as FlowContext,
    events: {} as FlowEvent,
  },
  actors: nodeActors,
  actions: {
    /** Entry of the start node, which moves on at once. */
    start: (_, _params: { nodeId: string }) => undefined,
    /** Entry of an end node: the session is complete. */
    end: (_, _params: { nodeId: string }) => undefined,
    recordStep: assign(({ context }, step: PathStep) => ({ path: [...context.path, { ...step }] })),
  },
  guards: {
    outcomeIs: ({ event }, params: { outcome: string }) => event.outcome === params.outcome,
  },
});
