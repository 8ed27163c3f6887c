import type { FlowNode } from './kinds';
import type { FlowSetup, WorkNodeType } from './machine-setup';
import type { PathStep } from './position';

// The shape of a flow machine, shared by `compileFlow` (which reads each node's outcomes from the
// kinds) and the light `storedFlowMachine` (which reads them from the stored flow). Only types of
// the kinds here, so the light path stays free of their TypeBox schemas.

/**
 * XState copies each transition config with an object spread and then overwrites `target` (and
 * an invoke's `src`); V8 handles that overwrite badly, making a 200-node machine four times
 * slower to build. Holding those fields in private slots behind getters keeps them out of the
 * spread while XState still reads them by name. compile.test.ts checks the built transitions.
 */
class TransitionSpec {
  readonly #target: string;
  readonly #guard: unknown;
  readonly #actions: unknown;
  constructor(target: string, guard?: unknown, actions?: unknown) {
    this.#target = target;
    this.#guard = guard;
    this.#actions = actions;
  }
  get target(): string {
    return this.#target;
  }
  get guard(): unknown {
    return this.#guard;
  }
  get actions(): unknown {
    return this.#actions;
  }
}

class InvokeSpec {
  readonly #src: string;
  readonly input: unknown;
  constructor(src: string, input: unknown) {
    this.#src = src;
    this.input = input;
  }
  get src(): string {
    return this.#src;
  }
}

/**
 * A state key as an XState target: `.` separates path segments and `\` escapes, so both are
 * escaped (ids starting with `#`, XState's id marker, are refused by validation).
 * @example targetOf('step.1') // 'step\\.1'
 */
export function targetOf(key: string): string {
  if (!key.includes('.') && !key.includes('\\')) return key;
  return key.replace(/[\\.]/g, (c) => `\\${c}`);
}

/**
 * `base`, or `base_1`, `base_2`, … : the first that is not taken.
 * @example freeKey('__incomplete', new Set(['__incomplete'])) // '__incomplete_1'
 */
export function freeKey(base: string, taken: ReadonlySet<string>): string {
  let key = base;
  for (let n = 1; taken.has(key); n++) key = `${base}_${n}`;
  return key;
}

const guards = new Map<string, { type: 'outcomeIs'; params: { outcome: string } }>();
function guardFor(outcome: string) {
  let guard = guards.get(outcome);
  if (!guard) {
    guard = { type: 'outcomeIs', params: { outcome } };
    guards.set(outcome, guard);
  }
  return guard;
}

/** One outcome of a node: where it leads and the step it records in the path. */
export interface Route {
  outcome: string;
  /** The node it leads to; undefined: the session ends incomplete. */
  target: string | undefined;
  step: PathStep;
}

/** How a builder reads the nodes of a flow. */
export interface Routing {
  /** The outcomes of a node that selects some (neither start nor end). */
  routes(node: FlowNode): Route[];
  /**
   * The node's other outcomes, which `routes` does not know, end the session incomplete (the
   * stored flow leaves out a fixed outcome without a target). Without it they change nothing.
   */
  othersEndIncomplete?(node: FlowNode): boolean;
  /** What the node's actor receives as `node`. */
  input(node: FlowNode): unknown;
}

function stateOf(node: FlowNode, routing: Routing, incompleteKey: string): object {
  if (node.type === 'start')
    return {
      entry: { type: 'start', params: { nodeId: node.id } },
      always: new TransitionSpec(targetOf(node.outcome)),
    };
  if (node.type === 'end')
    return {
      type: 'final',
      tags: ['complete'],
      entry: { type: 'end', params: { nodeId: node.id } },
    };
  const transitions = routing
    .routes(node)
    .map(
      ({ outcome, target, step }) =>
        new TransitionSpec(
          target === undefined ? incompleteKey : targetOf(target),
          guardFor(outcome),
          { type: 'recordStep', params: step },
        ),
    );
  if (routing.othersEndIncomplete?.(node))
    transitions.push(
      new TransitionSpec(incompleteKey, undefined, {
        type: 'recordOutcome',
        params: { nodeId: node.id, type: node.type },
      }),
    );
  return {
    invoke: new InvokeSpec(node.type satisfies WorkNodeType, () => ({ node: routing.input(node) })),
    on: { outcome: transitions },
  };
}

/** Where a machine starts other than at the start node: a node, with the path that led there. */
export interface StartAt {
  nodeId: string;
  path: readonly PathStep[];
}

/**
 * The XState machine of a flow: one state per node (keyed by its id), each work node invoking the
 * actor named by its type, one guarded transition per outcome on `{ type: 'outcome' }`, final
 * states for the end nodes (tag `complete`) and for `incompleteKey` (tag `incomplete`).
 * docs/flows.md, "The state machine".
 *
 * @example buildFlowMachine(flowSetup, flow, routing, { incompleteKey: '__incomplete' })
 */
export function buildFlowMachine(
  flowSetup: FlowSetup,
  flow: readonly FlowNode[],
  routing: Routing,
  options: { incompleteKey: string; at?: StartAt },
) {
  const { incompleteKey, at } = options;
  const start = flow.find((node) => node.type === 'start');
  const states: Record<string, object> = {};
  for (const node of flow) states[node.id] = stateOf(node, routing, incompleteKey);
  states[incompleteKey] = { type: 'final', tags: ['incomplete'] };
  return flowSetup.createMachine({
    id: 'flow',
    initial: at?.nodeId ?? start?.id ?? '',
    context: { path: at ? [...at.path] : [] },
    // The states are built at run time from the flow; their shape is what stateOf returns.
    states: states as never,
  });
}

/** The XState v5 machine of a flow. */
export type FlowMachine = ReturnType<typeof buildFlowMachine>;

/** Where one outcome of a node leads, as the machine's transitions say. */
export interface RouteTaken {
  outcome: string;
  /** The node it leads to; null: the session ends incomplete. */
  target: string | null;
}

/**
 * Where each outcome of a node leads, read from the machine's own transitions (the outcomes its
 * guards name; a stored flow's outcomes without a target are not listed). Empty for start, end
 * and an id the machine has no state for.
 *
 * @example nodeRoutes(machine, 'mail') // [{ outcome: 'emailEntered', target: 'code' }, …]
 */
export function nodeRoutes(machine: FlowMachine, nodeId: string): RouteTaken[] {
  const state = Object.hasOwn(machine.root.states, nodeId) ? machine.root.states[nodeId] : null;
  const routes: RouteTaken[] = [];
  for (const transition of state?.transitions.get('outcome') ?? []) {
    const guard = transition.guard as { type?: string; params?: { outcome?: string } } | undefined;
    const to = transition.target?.[0];
    if (guard?.type !== 'outcomeIs' || typeof guard.params?.outcome !== 'string' || !to) continue;
    routes.push({
      outcome: guard.params.outcome,
      target: to.type === 'final' && to.tags.includes('incomplete') ? null : to.key,
    });
  }
  return routes;
}
