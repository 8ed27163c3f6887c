import { assign, fromCallback, setup } from 'xstate';
import type { NodeType } from './node-types';
import type { ResolvedNode } from './nodes';
import type { PathStep } from './position';

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

/** Node types whose work runs as an invoked actor (start and end are actions). */
export type WorkNodeType = Exclude<NodeType, 'start' | 'end'>;

/**
 * The default actor of every node type: it does nothing, so the node waits for an `outcome`
 * event sent to the machine from outside. The page replaces it with `.provide({ actors })`:
 * a callback actor that does the node's work and reports with `sendBack({ type: 'outcome', … })`.
 */
const waitForOutcome = <T extends WorkNodeType>() =>
  fromCallback<FlowEvent, NodeActorInput<T>>(() => undefined);

/** The named actors, actions and guards every compiled flow machine refers to. */
export const flowSetup = setup({
  types: {
    context: {} as FlowContext,
    events: {} as FlowEvent,
  },
  actors: {
    conversation: waitForOutcome<'conversation'>(),
    recognition: waitForOutcome<'recognition'>(),
    liveness_detection: waitForOutcome<'liveness_detection'>(),
    document_scan: waitForOutcome<'document_scan'>(),
    face_scan: waitForOutcome<'face_scan'>(),
    face_compare: waitForOutcome<'face_compare'>(),
    enter_email: waitForOutcome<'enter_email'>(),
    two_factor_email: waitForOutcome<'two_factor_email'>(),
    two_factor_sms: waitForOutcome<'two_factor_sms'>(),
    data_validation: waitForOutcome<'data_validation'>(),
    permissions: waitForOutcome<'permissions'>(),
  },
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
