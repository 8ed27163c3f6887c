import type { SnapshotFrom } from 'xstate';
import { flowSetup } from './machine-setup';
import type { WorkNodeType } from './machine-setup';
import type { Flow, FlowNode } from './nodes';
import { nodeDefaults } from './nodes';
import { checkResultOf } from './nodes/data-validation';
import { targetsOf } from './outcomes';
import type { PathStep } from './position';
import { FlowValidationError } from './problems';
import { validateFlow } from './validate';

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

function freeKey(base: string, taken: ReadonlySet<string>): string {
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

function stateOf(node: FlowNode, incompleteKey: string): object {
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
  const transitions = targetsOf(node).map(([outcome, target], index) => {
    const step: PathStep = { nodeId: node.id, type: node.type, outcome };
    if (node.type === 'data_validation') {
      const result = checkResultOf(node.outcomes, index);
      if (result) step.result = result;
    }
    return new TransitionSpec(
      target === undefined ? incompleteKey : targetOf(target),
      guardFor(outcome),
      { type: 'recordStep', params: step },
    );
  });
  return {
    // The defaults are filled in when the node is entered, not for every node at compile time.
    invoke: new InvokeSpec(node.type satisfies WorkNodeType, () => ({ node: nodeDefaults(node) })),
    on: { outcome: transitions },
  };
}

function buildMachine(flow: Flow, incompleteKey: string) {
  const start = flow.find((node) => node.type === 'start');
  const states: Record<string, object> = {};
  for (const node of flow) states[node.id] = stateOf(node, incompleteKey);
  states[incompleteKey] = { type: 'final', tags: ['incomplete'] };
  return flowSetup.createMachine({
    id: 'flow',
    initial: start?.id ?? '',
    context: { path: [] },
    // The states are built at run time from the flow; their shape is what stateOf returns.
    states: states as never,
  });
}

/** The XState v5 machine of a flow. */
export type FlowMachine = ReturnType<typeof buildMachine>;
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
