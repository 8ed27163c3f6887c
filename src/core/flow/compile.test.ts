import { createActor, fromCallback } from 'xstate';
import { describe, expect, it } from 'vitest';
import { compileFlow } from './compile';
import type { NodeActorEvent, NodeActorInput, WorkNodeType } from './machine-setup';
import type { Flow } from './kinds';
import { FlowValidationError } from './problems';
import { asFlow, sampleFlows } from './test-flows';

const stateOf = (flow: Flow, key: string) => {
  const state = compileFlow(flow).root.states[key];
  if (!state) throw new Error(`no state ${key}`);
  return state;
};

describe('compileFlow', () => {
  it('makes one state per node, keyed by node id, plus the incomplete final state', () => {
    const flow = sampleFlows.fullKyc();
    expect(Object.keys(compileFlow(flow).root.states).sort()).toEqual(
      [...flow.map((n) => n.id), '__incomplete'].sort(),
    );
  });

  it("invokes each node's work as the actor named by its type, with the node's defaults", () => {
    const flow = sampleFlows.fullKyc();
    for (const node of flow) {
      if (node.type === 'start' || node.type === 'end') continue;
      const [invoke, ...more] = stateOf(flow, node.id).invoke;
      expect(more).toEqual([]);
      expect(invoke?.src).toBe(node.type);
    }
    // The input is made when the node is entered: run to the OTP node and look at what arrives.
    let received: NodeActorInput<'two_factor_email'> | undefined;
    const machine = compileFlow(flow).provide({
      actors: {
        two_factor_email: fromCallback<NodeActorEvent, NodeActorInput<'two_factor_email'>>(
          ({ input }) => {
            received = input;
          },
        ),
      },
    });
    const actor = createActor(machine).start();
    for (const outcome of [
      'permissionsGranted',
      'livenessDetected',
      'scanSuccess',
      'match',
      'emailEntered',
    ])
      actor.send({ type: 'outcome', outcome });
    expect(received?.node).toEqual({
      ...flow.find((n) => n.id === 'email_code'),
      otpLength: 6,
      expirySeconds: 300,
      maxAttempts: 3,
      resendAfterSeconds: 30,
      showUI: true,
    });
  });

  it('has one guarded transition per outcome, to its target or to the incomplete state', () => {
    const flow = asFlow([
      { id: 'start', type: 'start', outcome: 'scan' },
      { id: 'scan', type: 'face_scan', outcomes: { passed: 'ok', error: 'ko' } },
      { id: 'ok', type: 'end' },
      { id: 'ko', type: 'end' },
    ]);
    const transitions = stateOf(flow, 'scan').transitions.get('outcome') ?? [];
    expect(
      transitions.map((t) => ({
        guard: t.guard,
        target: t.target?.map((s) => s.key),
        actions: t.actions,
      })),
    ).toEqual(
      [
        ['passed', 'ok'],
        ['notPassed', '__incomplete'],
        ['cancelled', '__incomplete'],
        ['error', 'ko'],
      ].map(([outcome, target]) => ({
        guard: { type: 'outcomeIs', params: { outcome } },
        target: [target],
        actions: [{ type: 'recordStep', params: { nodeId: 'scan', type: 'face_scan', outcome } }],
      })),
    );
  });

  it('moves past the start node at once and ends in final states tagged by how the session ends', () => {
    const flow = sampleFlows.fullKyc();
    const start = stateOf(flow, 'start');
    expect(start.always?.map((t) => t.target?.map((s) => s.key))).toEqual([['permissions']]);
    expect(start.entry).toEqual([{ type: 'start', params: { nodeId: 'start' } }]);
    for (const id of ['verified', 'rejected']) {
      expect(stateOf(flow, id).type).toBe('final');
      expect(stateOf(flow, id).tags).toEqual(['complete']);
      expect(stateOf(flow, id).entry).toEqual([{ type: 'end', params: { nodeId: id } }]);
    }
    expect(stateOf(flow, '__incomplete').type).toBe('final');
    expect(stateOf(flow, '__incomplete').tags).toEqual(['incomplete']);
  });

  it('picks another key for the incomplete state when a node already has that id', () => {
    const flow = asFlow([
      { id: 'start', type: 'start', outcome: '__incomplete' },
      { id: '__incomplete', type: 'permissions', outcomes: { permissionsGranted: 'end' } },
      { id: 'end', type: 'end' },
    ]);
    const targets = stateOf(flow, '__incomplete')
      .transitions.get('outcome')
      ?.map((t) => t.target?.[0]?.key);
    expect(targets).toEqual(['end', '__incomplete_1']);
  });

  it('keeps node ids with dots and backslashes as they are', () => {
    const flow = asFlow([
      { id: 'start', type: 'start', outcome: 'step.1' },
      { id: 'step.1', type: 'permissions', outcomes: { permissionsGranted: 'a\\b' } },
      { id: 'a\\b', type: 'enter_email', outcomes: { emailEntered: '.end' } },
      { id: '.end', type: 'end' },
    ]);
    const actor = createActor(compileFlow(flow)).start();
    expect(actor.getSnapshot().value).toBe('step.1');
    actor.send({ type: 'outcome', outcome: 'permissionsGranted' });
    expect(actor.getSnapshot().value).toBe('a\\b');
    actor.send({ type: 'outcome', outcome: 'emailEntered' });
    expect(actor.getSnapshot().value).toBe('.end');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('caches the machine per flow object', () => {
    const flow = sampleFlows.conversationBranching();
    const machine = compileFlow(flow);
    expect(compileFlow(flow)).toBe(machine);
    expect(compileFlow(sampleFlows.fullKyc())).not.toBe(machine);
  });

  it('refuses an invalid flow with its problems', () => {
    const flow = [{ id: 'start', type: 'start', outcome: 'gone' }] as Flow;
    expect(() => compileFlow(flow)).toThrow(FlowValidationError);
    try {
      compileFlow(flow);
    } catch (error) {
      expect((error as FlowValidationError).problems).toEqual([
        { path: 'flow', message: 'the flow has no end node; it needs at least one' },
        { path: 'flow[0].outcome', nodeId: 'start', message: "no node has the id 'gone'" },
      ]);
    }
  });
});

describe('the compiled machine under the XState interpreter', () => {
  it('waits on each node for an outcome event when no actor is provided', () => {
    const actor = createActor(compileFlow(sampleFlows.fullKyc())).start();
    expect(actor.getSnapshot().value).toBe('permissions');
    actor.send({ type: 'outcome', outcome: 'permissionsGranted' });
    actor.send({ type: 'outcome', outcome: 'livenessDetected' });
    expect(actor.getSnapshot().value).toBe('document');
    actor.send({ type: 'outcome', outcome: 'no such outcome' });
    expect(actor.getSnapshot().value).toBe('document');
    actor.send({ type: 'outcome', outcome: 'userCancelled' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.path.map((s) => s.outcome)).toEqual([
      'permissionsGranted',
      'livenessDetected',
      'userCancelled',
    ]);
  });

  it('runs the actors supplied with .provide(), which report outcomes with sendBack', async () => {
    const seen: string[] = [];
    const answer = <T extends WorkNodeType>(outcome: string) =>
      fromCallback<NodeActorEvent, NodeActorInput<T>>(({ sendBack, input }) => {
        seen.push(`${input.node.type}:${input.node.id}`);
        const timer = setTimeout(() => sendBack({ type: 'outcome', outcome }), 1);
        return () => clearTimeout(timer);
      });
    const machine = compileFlow(sampleFlows.conversationBranching()).provide({
      actors: {
        permissions: answer<'permissions'>('permissionsGranted'),
        conversation: answer<'conversation'>('agreed'),
        enter_email: answer<'enter_email'>('emailEntered'),
        two_factor_email: answer<'two_factor_email'>('verified'),
        data_validation: answer<'data_validation'>('valid'),
      },
    });
    const actor = createActor(machine).start();
    const done = await new Promise<ReturnType<typeof actor.getSnapshot>>((resolve) =>
      actor.subscribe((s) => s.status === 'done' && resolve(s)),
    );
    expect(done.value).toBe('verified');
    expect(done.hasTag('complete')).toBe(true);
    expect(seen).toEqual([
      'permissions:permissions',
      'conversation:welcome',
      'enter_email:email',
      'two_factor_email:email_code',
      'data_validation:email_check',
    ]);
    expect(done.context.path).toEqual([
      { nodeId: 'permissions', type: 'permissions', outcome: 'permissionsGranted' },
      { nodeId: 'welcome', type: 'conversation', outcome: 'agreed' },
      { nodeId: 'email', type: 'enter_email', outcome: 'emailEntered' },
      { nodeId: 'email_code', type: 'two_factor_email', outcome: 'verified' },
      { nodeId: 'email_check', type: 'data_validation', outcome: 'valid', result: 'passed' },
    ]);
  });
});
