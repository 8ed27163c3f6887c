import { fromCallback } from 'xstate';
import { describe, expect, it } from 'vitest';
import { WORK_NODE_TYPES } from '../../core/flow';
import type { NodeActorEvent, NodeActorInput, NodeActors } from '../../core/flow';
import { sampleFlows } from '../../core/flow/test-flows';
import type { FlowNode, PathStep, Position } from '../api/types';
import { PAGE_ACTORS, PAGE_KINDS } from '../nodes';
import { flowRunner } from './flowRunner';

// conversation-branching: permissions → welcome (agreed → email → email_code → email_check →
// verified; declined → goodbye → declined_end); refusals → rejected.
const FLOW = sampleFlows.conversationBranching() as FlowNode[];

const step = (nodeId: string, outcome: string): PathStep => ({
  nodeId,
  type: FLOW.find((n) => n.id === nodeId)!.type,
  outcome,
});
const active = (nodeId: string, path: PathStep[]): Position => ({
  nodeId,
  nodeType: FLOW.find((n) => n.id === nodeId)!.type,
  status: 'active',
  path,
});
const ended = (path: PathStep[], status: 'complete' | 'incomplete' = 'complete'): Position => ({
  nodeId: null,
  nodeType: null,
  status,
  path,
});

/** Follows positions one by one, as the server answers them, and says where the runner stood. */
function follow(positions: Position[], runner = flowRunner(FLOW)) {
  return positions.map((p) => {
    const at = runner.follow(p);
    return `${at.nodeId ?? at.status}${at.restarted ? ' (restarted)' : ''}`;
  });
}

describe('the page’s node actors', () => {
  it('come from the page module of each work kind, one for every work kind', () => {
    expect(Object.keys(PAGE_ACTORS)).toEqual(WORK_NODE_TYPES);
    for (const type of WORK_NODE_TYPES) {
      expect(PAGE_ACTORS[type]).toBe((PAGE_KINDS[type] as { actor?: unknown }).actor);
    }
    expect(PAGE_KINDS.start).not.toHaveProperty('actor');
    expect(PAGE_KINDS.end).not.toHaveProperty('actor');
  });

  it('are what each node state invokes', () => {
    // The conversation's actor replaced by one that answers "declined" whatever the server
    // decided: the machine follows it, not the server, and the runner notices.
    const started: string[] = [];
    const declines = fromCallback<NodeActorEvent, NodeActorInput<'conversation'>>(
      ({ input, receive, sendBack }) => {
        started.push(input.node.id);
        receive(({ position }) => {
          if (position.path.some((s) => s.nodeId === input.node.id))
            sendBack({ type: 'outcome', outcome: 'declined' });
        });
      },
    );
    const actors: NodeActors = { ...PAGE_ACTORS, conversation: declines };
    const granted = [step('permissions', 'permissionsGranted')];
    const agreed = [...granted, step('welcome', 'agreed')];
    expect(
      follow([active('welcome', granted), active('email', agreed)], flowRunner(FLOW, actors)),
    ).toEqual(['welcome', 'email (restarted)']);
    expect(started).toEqual(['welcome', 'goodbye']);
  });
});

describe('flowRunner', () => {
  const granted = [step('permissions', 'permissionsGranted')];

  it('moves with the server’s outcomes down the "yes" branch', () => {
    const agreed = [...granted, step('welcome', 'agreed')];
    const entered = [...agreed, step('email', 'emailEntered')];
    expect(
      follow([
        active('permissions', []),
        active('welcome', granted),
        active('email', agreed),
        active('email_code', entered),
        // The code was right; the server ran the data check too, in the same answer.
        ended([...entered, step('email_code', 'verified'), step('email_check', 'valid')]),
      ]),
    ).toEqual(['permissions', 'welcome', 'email', 'email_code', 'complete']);
  });

  it('moves with the server’s outcomes down the "no" branch', () => {
    const declined = [...granted, step('welcome', 'declined')];
    expect(
      follow([
        active('permissions', []),
        active('welcome', granted),
        active('goodbye', declined),
        ended([...declined, step('goodbye', 'closed')]),
      ]),
    ).toEqual(['permissions', 'welcome', 'goodbye', 'complete']);
  });

  it('stays on a node the server keeps the session on', () => {
    expect(follow([active('welcome', granted), active('welcome', granted)])).toEqual([
      'welcome',
      'welcome',
    ]);
  });

  it('reaches a resumed session’s node by the outcomes of its path', () => {
    const runner = flowRunner(FLOW);
    const at = runner.follow(
      active('email_code', [...granted, step('welcome', 'agreed'), step('email', 'emailEntered')]),
    );
    expect(at).toEqual({
      nodeId: 'email_code',
      status: 'active',
      routes: [
        { outcome: 'verified', target: 'email_check' },
        { outcome: 'delivery_failed', target: 'rejected' },
        { outcome: 'failed_unverified', target: 'rejected' },
        { outcome: 'cancelled', target: 'rejected' },
        { outcome: 'error', target: 'rejected' },
      ],
      restarted: false,
    });
  });

  it('ends incomplete with an outcome the flow gives no target', () => {
    const flow = FLOW.map((n) =>
      n.id === 'permissions' ? { ...n, outcomes: { permissionsGranted: 'welcome' } } : n,
    ) as FlowNode[];
    expect(
      follow(
        [
          active('permissions', []),
          ended([step('permissions', 'permissionsDenied')], 'incomplete'),
        ],
        flowRunner(flow),
      ),
    ).toEqual(['permissions', 'incomplete']);
  });

  it('follows the server where the machine goes elsewhere, and goes on from the server’s node', () => {
    // The path says "declined" (→ goodbye), the server names email.
    const odd = [...granted, step('welcome', 'declined')];
    const runner = flowRunner(FLOW);
    expect(runner.follow(active('email', odd))).toEqual({
      nodeId: 'email',
      status: 'active',
      routes: [
        { outcome: 'emailEntered', target: 'email_code' },
        { outcome: 'canceled', target: 'rejected' },
      ],
      restarted: true,
    });
    expect(follow([active('email_code', [...odd, step('email', 'emailEntered')])], runner)).toEqual(
      ['email_code'],
    );
  });

  it('follows the server to an end the machine did not reach', () => {
    expect(follow([active('welcome', granted), ended(granted, 'incomplete')])).toEqual([
      'welcome',
      'incomplete (restarted)',
    ]);
    const runner = flowRunner(FLOW);
    // Then the next position starts the machine again at the server's node.
    expect(
      follow(
        [
          ended([]),
          active('welcome', granted),
          active('email', [...granted, step('welcome', 'agreed')]),
        ],
        runner,
      ),
    ).toEqual(['complete (restarted)', 'welcome (restarted)', 'email']);
  });

  it('shows the server’s node even where the machine cannot stand', () => {
    // A position resting on the start node (the page then reads the session again), or naming a
    // node the flow does not have: the page shows what the server says.
    const runner = flowRunner(FLOW);
    expect(
      runner.follow({ ...active('permissions', []), nodeId: 'start', nodeType: 'start' }),
    ).toMatchObject({ nodeId: 'start', status: 'active', routes: [], restarted: true });
    expect(runner.follow({ ...active('permissions', []), nodeId: 'ghost' })).toMatchObject({
      nodeId: 'ghost',
      restarted: true,
    });
    expect(
      follow(
        [active('welcome', granted), active('goodbye', [...granted, step('welcome', 'declined')])],
        runner,
      ),
    ).toEqual(['welcome (restarted)', 'goodbye']);
  });

  it('stops the current node’s actor when it stops', () => {
    const stopped: string[] = [];
    const actors: NodeActors = {
      ...PAGE_ACTORS,
      permissions: fromCallback<NodeActorEvent, NodeActorInput<'permissions'>>(({ input }) => {
        return () => stopped.push(input.node.id);
      }),
    };
    const runner = flowRunner(FLOW, actors);
    runner.follow(active('permissions', []));
    expect(stopped).toEqual([]);
    runner.stop();
    expect(stopped).toEqual(['permissions']);
  });
});
