import { createActor, fromCallback, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import { compileFlow } from './compile';
import type { Flow } from './kinds';
import type { FlowMachine } from './machine-build';
import { nodeRoutes, targetOf } from './machine-build';
import type { NodeActorEvent, NodeActorInput } from './machine-setup';
import { outcomesOf } from './outcomes';
import { storedFlowMachine } from './stored-machine';
import { sampleFlows } from './test-flows';

/** Where one outcome of a node leads in a machine: the state reached and how the flow stands. */
function after(machine: FlowMachine, nodeId: string, outcome: string) {
  const at = machine.resolveState({ value: targetOf(nodeId), context: { path: [] } });
  const [next] = transition(machine, at, { type: 'outcome', outcome });
  return {
    value: next.value,
    status: next.status,
    complete: next.hasTag('complete'),
    path: next.context.path.map(({ nodeId: id, type, outcome: o }) => ({ id, type, o })),
  };
}

/** A sample with some outcomes left without a target, so the stored flow does not name them. */
function withUnrouted(): Flow {
  const flow = sampleFlows.fullKyc();
  for (const node of flow) {
    if (node.type === 'liveness_detection') delete node.outcomes.inconclusive;
    if (node.type === 'document_scan') delete node.outcomes.scanTimeout;
  }
  return flow;
}

describe('storedFlowMachine', () => {
  const flows: [string, () => Flow][] = [
    ['full KYC', sampleFlows.fullKyc],
    ['conversation branching', sampleFlows.conversationBranching],
    ['outcomes without a target', withUnrouted],
  ];

  it.each(flows)('moves as compileFlow does on every outcome of every node (%s)', (_, make) => {
    const flow = make();
    const stored = storedFlowMachine(flow);
    const compiled = compileFlow(flow);
    expect(Object.keys(stored.root.states).sort()).toEqual(
      Object.keys(compiled.root.states).sort(),
    );
    let tried = 0;
    for (const node of flow) {
      for (const outcome of outcomesOf(node)) {
        expect(after(stored, node.id, outcome), `${node.id} ${outcome}`).toEqual(
          after(compiled, node.id, outcome),
        );
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(10);
  });

  it('invokes the actor named by each node type, with the node as stored', () => {
    const flow = sampleFlows.conversationBranching();
    const seen: unknown[] = [];
    const machine = storedFlowMachine(flow).provide({
      actors: {
        two_factor_email: fromCallback<NodeActorEvent, NodeActorInput<'two_factor_email'>>(
          ({ input }) => {
            seen.push(input.node);
          },
        ),
      },
    });
    const actor = createActor(machine).start();
    for (const outcome of ['permissionsGranted', 'agreed', 'emailEntered'])
      actor.send({ type: 'outcome', outcome });
    expect(seen).toEqual([flow.find((n) => n.id === 'email_code')]);
  });

  it('ends incomplete on a fixed outcome the stored flow does not route, recording it', () => {
    const actor = createActor(storedFlowMachine(withUnrouted())).start();
    actor.send({ type: 'outcome', outcome: 'permissionsGranted' });
    actor.send({ type: 'outcome', outcome: 'inconclusive' });
    const snapshot = actor.getSnapshot();
    expect(snapshot.status).toBe('done');
    expect(snapshot.hasTag('incomplete')).toBe(true);
    expect(snapshot.context.path.at(-1)).toEqual({
      nodeId: 'liveness',
      type: 'liveness_detection',
      outcome: 'inconclusive',
    });
  });

  it('ignores an outcome a conditional node does not have', () => {
    const actor = createActor(storedFlowMachine(sampleFlows.conversationBranching())).start();
    actor.send({ type: 'outcome', outcome: 'permissionsGranted' });
    actor.send({ type: 'outcome', outcome: 'maybe' });
    expect(actor.getSnapshot().value).toBe('welcome');
  });

  it('starts at a given node with its path, and runs that node’s actor', () => {
    const flow = sampleFlows.conversationBranching();
    const path = [{ nodeId: 'permissions', type: 'permissions' as const, outcome: 'x' }];
    const started: string[] = [];
    const machine = storedFlowMachine(flow, { nodeId: 'email', path }).provide({
      actors: {
        enter_email: fromCallback<NodeActorEvent, NodeActorInput<'enter_email'>>(({ input }) => {
          started.push(input.node.id);
        }),
      },
    });
    const actor = createActor(machine).start();
    expect(actor.getSnapshot().value).toBe('email');
    expect(actor.getSnapshot().context.path).toEqual(path);
    expect(started).toEqual(['email']);
  });

  it('needs no kinds: it builds a node of a type the core does not know', () => {
    const flow = [
      { id: 'start', type: 'start', outcome: 'chime' },
      { id: 'chime', type: 'toy_chime', outcomes: { heard: 'end' } },
      { id: 'end', type: 'end' },
    ] as unknown as Flow;
    const actor = createActor(storedFlowMachine(flow)).start();
    expect(actor.getSnapshot().value).toBe('chime');
    actor.send({ type: 'outcome', outcome: 'heard' });
    expect(actor.getSnapshot().hasTag('complete')).toBe(true);
  });
});

describe('nodeRoutes', () => {
  it('reads where each outcome leads from the machine’s transitions', () => {
    const flow = withUnrouted();
    expect(nodeRoutes(storedFlowMachine(flow), 'liveness')).toEqual([
      { outcome: 'livenessDetected', target: 'document' },
      { outcome: 'deepfakeDetected', target: 'rejected' },
      { outcome: 'noFace', target: 'rejected' },
    ]);
    // The compiled machine knows the kinds: the outcome without a target is listed, leading nowhere.
    expect(nodeRoutes(compileFlow(flow), 'liveness')).toContainEqual({
      outcome: 'inconclusive',
      target: null,
    });
    expect(nodeRoutes(storedFlowMachine(flow), 'start')).toEqual([]);
    expect(nodeRoutes(storedFlowMachine(flow), 'nowhere')).toEqual([]);
    expect(nodeRoutes(storedFlowMachine(sampleFlows.minimal()), 'end')).toEqual([]);
  });
});
