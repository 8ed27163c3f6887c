import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import type { FlowSnapshot } from './compile';
import { compileFlow } from './compile';
import type { FlowEvent } from './machine-setup';
import type { Flow } from './kinds';
import { outcomesOf } from './outcomes';
import { sampleFlows } from './test-flows';

/** The events worth trying in a state: one per outcome of the node it stands for. */
const eventsOf = (flow: Flow) => (snapshot: FlowSnapshot) => {
  const node = flow.find((n) => n.id === snapshot.value);
  return node ? outcomesOf(node).map((outcome): FlowEvent => ({ type: 'outcome', outcome })) : [];
};

/**
 * The shortest path from the start to every reachable node, as the outcomes taken. States are
 * told apart by node alone: the recorded path in the context would make every route its own state.
 */
function shortestPaths(flow: Flow): Map<string, string[]> {
  const paths = getShortestPaths(compileFlow(flow), {
    events: eventsOf(flow),
    serializeState: (snapshot) => JSON.stringify(snapshot.value),
  });
  return new Map(
    paths.map((path) => [
      String(path.state.value),
      path.steps.slice(1).map((step) => (step.event as FlowEvent).outcome),
    ]),
  );
}

describe('xstate/graph shortest paths over the sample flows', () => {
  it('minimal: the start leads straight to the end', () => {
    const paths = shortestPaths(sampleFlows.minimal());
    expect([...paths.entries()]).toEqual([['end', []]]);
  });

  it('full KYC: the success end lies past every check, each failure one step from rejection', () => {
    const flow = sampleFlows.fullKyc();
    const paths = shortestPaths(flow);
    expect(paths.get('verified')).toEqual([
      'permissionsGranted',
      'livenessDetected',
      'scanSuccess',
      'match',
      'emailEntered',
      'verified',
    ]);
    expect(paths.get('rejected')).toEqual(['permissionsDenied']);
    expect(paths.get('email_code')).toEqual([
      'permissionsGranted',
      'livenessDetected',
      'scanSuccess',
      'match',
      'emailEntered',
    ]);
    // Every outcome of the sample has a target, so the incomplete state cannot be reached.
    expect([...paths.keys()].sort()).toEqual(
      flow
        .filter((n) => n.type !== 'start')
        .map((n) => n.id)
        .sort(),
    );
  });

  it('conversation branching: each branch of the conversation reaches its own end', () => {
    const flow = sampleFlows.conversationBranching();
    const paths = shortestPaths(flow);
    expect(paths.get('verified')).toEqual([
      'permissionsGranted',
      'agreed',
      'emailEntered',
      'verified',
      'valid',
    ]);
    expect(paths.get('declined_end')).toEqual(['permissionsGranted', 'declined', 'closed']);
    expect(paths.get('rejected')).toEqual(['permissionsDenied']);
    expect([...paths.keys()].sort()).toEqual(
      flow
        .filter((n) => n.type !== 'start')
        .map((n) => n.id)
        .sort(),
    );
  });

  it('reaches the incomplete state through an outcome left without a target', () => {
    const flow = sampleFlows.fullKyc();
    const liveness = flow.find((n) => n.id === 'liveness');
    if (liveness?.type !== 'liveness_detection') throw new Error('sample changed');
    delete liveness.outcomes.inconclusive;
    expect(shortestPaths(flow).get('__incomplete')).toEqual(['permissionsGranted', 'inconclusive']);
  });
});
