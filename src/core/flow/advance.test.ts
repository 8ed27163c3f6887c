import { describe, expect, it } from 'vitest';
import { advanceFlow, startFlow } from './advance';
import type { Flow } from './kinds';
import type { FlowPosition } from './position';
import { asFlow, sampleFlows } from './test-flows';

/** Walks a flow by outcomes, failing the test on any refused step. */
function walk(flow: Flow, outcomes: string[]): FlowPosition {
  let position = startFlow(flow);
  for (const outcome of outcomes) {
    const result = advanceFlow(flow, position, { nodeId: position.nodeId ?? '', outcome });
    if (!result.ok) throw new Error(result.message);
    position = result.position;
  }
  return position;
}

describe('startFlow', () => {
  it('stands on the first node after the start', () => {
    expect(startFlow(sampleFlows.fullKyc())).toEqual({
      nodeId: 'permissions',
      nodeType: 'permissions',
      status: 'active',
      path: [],
    });
  });

  it('is complete at once when the start leads straight to an end', () => {
    expect(startFlow(sampleFlows.minimal())).toEqual({
      nodeId: null,
      nodeType: null,
      status: 'complete',
      path: [],
    });
  });
});

describe('advanceFlow', () => {
  it('follows the outcome to its target and records the step', () => {
    const flow = sampleFlows.fullKyc();
    const result = advanceFlow(flow, startFlow(flow), {
      nodeId: 'permissions',
      outcome: 'permissionsGranted',
    });
    expect(result).toEqual({
      ok: true,
      position: {
        nodeId: 'liveness',
        nodeType: 'liveness_detection',
        status: 'active',
        path: [{ nodeId: 'permissions', type: 'permissions', outcome: 'permissionsGranted' }],
      },
    });
  });

  it('completes on reaching an end node', () => {
    const flow = sampleFlows.fullKyc();
    const end = walk(flow, [
      'permissionsGranted',
      'livenessDetected',
      'scanSuccess',
      'match',
      'emailEntered',
      'verified',
    ]);
    expect(end.status).toBe('complete');
    expect(end.nodeId).toBeNull();
    expect(end.path.map((s) => s.nodeId)).toEqual([
      'permissions',
      'liveness',
      'document',
      'face_match',
      'email',
      'email_code',
    ]);
  });

  it('ends incomplete on an outcome without a target, with that outcome in the path', () => {
    const flow = asFlow([
      { id: 'start', type: 'start', outcome: 'scan' },
      { id: 'scan', type: 'document_scan', outcomes: { scanSuccess: 'end' } },
      { id: 'end', type: 'end' },
    ]);
    expect(walk(flow, ['scanTimeout'])).toEqual({
      nodeId: null,
      nodeType: null,
      status: 'incomplete',
      path: [{ nodeId: 'scan', type: 'document_scan', outcome: 'scanTimeout' }],
    });
  });

  it('ends incomplete on a conversation outcome without a target', () => {
    const flow = asFlow([
      { id: 'start', type: 'start', outcome: 'ask' },
      {
        id: 'ask',
        type: 'conversation',
        prompt: 'Say: Shall we start?',
        outcomes: [
          { id: 'yes', condition: 'The user agrees', targetNodeId: 'end' },
          { id: 'no', condition: 'The user says no' },
        ],
      },
      { id: 'end', type: 'end' },
    ]);
    expect(walk(flow, ['no'])).toMatchObject({
      status: 'incomplete',
      path: [{ nodeId: 'ask', type: 'conversation', outcome: 'no' }],
    });
    expect(walk(flow, ['yes']).status).toBe('complete');
  });

  it('refuses anything after the end', () => {
    const flow = sampleFlows.fullKyc();
    const end = walk(flow, ['permissionsDenied']);
    expect(end.status).toBe('complete');
    expect(
      advanceFlow(flow, end, { nodeId: 'permissions', outcome: 'permissionsGranted' }),
    ).toEqual({
      ok: false,
      reason: 'finished',
      message: 'the flow has already ended (complete); nothing can follow',
    });
  });

  it('refuses a step for a node other than the current one', () => {
    const flow = sampleFlows.fullKyc();
    expect(
      advanceFlow(flow, startFlow(flow), { nodeId: 'email_code', outcome: 'verified' }),
    ).toEqual({
      ok: false,
      reason: 'not_current_node',
      message: "node 'email_code' is not the current node; the current node is 'permissions'",
    });
  });

  it('refuses an outcome the node cannot select', () => {
    const flow = sampleFlows.fullKyc();
    const position = walk(flow, ['permissionsGranted']);
    expect(advanceFlow(flow, position, { nodeId: 'liveness', outcome: 'passed' })).toEqual({
      ok: false,
      reason: 'unknown_outcome',
      message:
        "'passed' is not an outcome of the liveness_detection node 'liveness'; its outcomes are livenessDetected, deepfakeDetected, noFace, inconclusive",
    });
  });

  it('refuses a position that names no node of the flow', () => {
    const flow = sampleFlows.fullKyc();
    const position: FlowPosition = {
      nodeId: 'ghost',
      nodeType: 'face_scan',
      status: 'active',
      path: [],
    };
    const result = advanceFlow(flow, position, { nodeId: 'ghost', outcome: 'passed' });
    expect(result).toMatchObject({ ok: false, reason: 'not_current_node' });
  });

  it('takes conversation and data_validation outcomes by id and records the check result', () => {
    const flow = sampleFlows.conversationBranching();
    const end = walk(flow, ['permissionsGranted', 'agreed', 'emailEntered', 'verified', 'invalid']);
    expect(end.status).toBe('complete');
    expect(end.path.slice(-1)).toEqual([
      { nodeId: 'email_check', type: 'data_validation', outcome: 'invalid', result: 'failed' },
    ]);
    const declined = walk(flow, ['permissionsGranted', 'declined', 'closed']);
    expect(declined.path.map((s) => `${s.nodeId}:${s.outcome}`)).toEqual([
      'permissions:permissionsGranted',
      'welcome:declined',
      'goodbye:closed',
    ]);
  });

  it('works from plain JSON: a stored flow and position, re-read', () => {
    const flow = sampleFlows.conversationBranching();
    const position = walk(flow, ['permissionsGranted', 'agreed']);
    const stored = JSON.parse(JSON.stringify({ flow, position })) as {
      flow: Flow;
      position: FlowPosition;
    };
    expect(stored.position).toEqual(position);
    const result = advanceFlow(stored.flow, stored.position, {
      nodeId: 'email',
      outcome: 'emailEntered',
    });
    expect(result).toEqual({
      ok: true,
      position: {
        nodeId: 'email_code',
        nodeType: 'two_factor_email',
        status: 'active',
        path: [...position.path, { nodeId: 'email', type: 'enter_email', outcome: 'emailEntered' }],
      },
    });
  });

  it('leaves the given position untouched', () => {
    const flow = sampleFlows.fullKyc();
    const position = walk(flow, ['permissionsGranted']);
    const before = structuredClone(position);
    advanceFlow(flow, position, { nodeId: 'liveness', outcome: 'livenessDetected' });
    expect(position).toEqual(before);
  });
});

describe('a stored flow', () => {
  it('still runs when its matches pattern is one new sessions may no longer use', () => {
    // As read back from the database: a new object, never validated in this process.
    const flow = JSON.parse(
      JSON.stringify([
        { id: 'start', type: 'start', outcome: 'check' },
        {
          id: 'check',
          type: 'data_validation',
          validation: { field: 'providedData.email', action: 'matches', value: '^(?!admin@)' },
          outcomes: [
            { id: 'ok', condition: 'passed', targetNodeId: 'done' },
            { id: 'ko', condition: 'failed', targetNodeId: 'done' },
          ],
        },
        { id: 'done', type: 'end' },
      ]),
    ) as Flow;
    expect(walk(flow, ['ko'])).toMatchObject({ status: 'complete', nodeId: null });
  });
});
