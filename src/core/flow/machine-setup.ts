import { assign, fromCallback, setup } from 'xstate';
import type { CallbackActorLogic } from 'xstate';
import type { NodeByType, NodeType, ResolvedNode, WorkNodeType } from './kinds';
import type { FlowPosition, PathStep } from './position';

// Only types of the kinds here: this module, machine-build.ts and stored-machine.ts are the light
// path the hosted page runs in its first chunk, without the kinds' TypeBox schemas.

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

/**
 * What whoever runs a flow machine may tell the actor of the current node: the session's position
 * as the authority keeps it. The hosted page sends each position the server answers with; its
 * actors end with the outcome the position's path records for their node.
 */
export interface PositionEvent {
  type: 'position';
  position: FlowPosition;
}

/** The events the actor of a node receives (what it sends back is a `FlowEvent`). */
export type NodeActorEvent = PositionEvent;

/**
 * What the actor of a node receives: the node. `compileFlow` fills in its defaults;
 * `storedFlowMachine`, which runs without the kinds, passes the node as stored.
 */
export interface NodeActorInput<T extends NodeType = NodeType> {
  node: ResolvedNode<T> | NodeByType[T];
}

/** The actor of a node of type `T`: it does the node's work and reports with `sendBack`. */
export type NodeActorLogic<T extends WorkNodeType = WorkNodeType> = CallbackActorLogic<
  NodeActorEvent,
  NodeActorInput<T>
>;

/** The actor of each kind whose work runs as one, named by its type. */
export type NodeActors = { [T in WorkNodeType]: NodeActorLogic<T> };

/**
 * The default actor of every node type: it does nothing, so the node waits for an `outcome`
 * event sent to the machine from outside. The hosted page replaces it with `.provide({ actors })`:
 * a callback actor that reports with `sendBack({ type: 'outcome', … })`.
 */
const waitForOutcome = () => fromCallback<NodeActorEvent, NodeActorInput>(() => undefined);

/**
 * The named actors, actions and guards every flow machine refers to, with the default actor
 * (waiting for an outcome) for each of `types`: `compileFlow` gives every work kind, the light
 * `storedFlowMachine` the types its flow uses.
 *
 * @example flowSetupFor(['permissions']).createMachine({ … })
 */
export function flowSetupFor(types: readonly string[]) {
  return setup({
    types: {
      context: {} as FlowContext,
      events: {} as FlowEvent,
    },
    // Keyed by type at run time; each entry is invoked only by a node of its own type.
    actors: Object.fromEntries(types.map((type) => [type, waitForOutcome()])) as NodeActors,
    actions: {
      /** Entry of the start node, which moves on at once. */
      start: (_, _params: { nodeId: string }) => undefined,
      /** Entry of an end node: the session is complete. */
      end: (_, _params: { nodeId: string }) => undefined,
      recordStep: assign(({ context }, step: PathStep) => ({
        path: [...context.path, { ...step }],
      })),
      /** A step whose outcome the transition does not name (the event's): see machine-build.ts. */
      recordOutcome: assign(({ context, event }, step: Omit<PathStep, 'outcome'>) => ({
        path: [...context.path, { ...step, outcome: event.outcome }],
      })),
    },
    guards: {
      outcomeIs: ({ event }, params: { outcome: string }) => event.outcome === params.outcome,
    },
  });
}

/** What `flowSetupFor` makes: the setup a flow machine is created with. */
export type FlowSetup = ReturnType<typeof flowSetupFor>;
