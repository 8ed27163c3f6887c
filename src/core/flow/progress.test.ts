import { describe, expect, it } from 'vitest';
import type { FlowNode } from './kinds';
import type { FlowPosition, PathStep } from './position';
import { flowProgress } from './progress';
import { asFlow, sampleFlows } from './test-flows';

const at = (nodeId: string, path: PathStep[]): FlowPosition => ({
  nodeId,
  nodeType: null,
  status: 'active',
  path,
});
const step = (nodeId: string, type: PathStep['type'], outcome: string): PathStep => ({
  nodeId,
  type,
  outcome,
});

describe('flowProgress', () => {
  it('full KYC: counts every screen on the longest route, the start and end not', () => {
    const flow = sampleFlows.fullKyc();
    expect(flowProgress(flow, at('permissions', [step('start', 'start', 'next')]))).toEqual({
      step: 1,
      total: 6,
    });
    const passed = [
      step('start', 'start', 'next'),
      step('permissions', 'permissions', 'permissionsGranted'),
      step('liveness', 'liveness_detection', 'livenessDetected'),
    ];
    expect(flowProgress(flow, at('document', passed))).toEqual({ step: 3, total: 6 });
  });

  it('branching: the total follows the longest branch left, and shrinks once a short one is taken', () => {
    const flow = sampleFlows.conversationBranching();
    const start = [step('start', 'start', 'next')];
    // permissions, welcome, email, email_code: the data_validation check has no screen.
    expect(flowProgress(flow, at('permissions', start))).toEqual({ step: 1, total: 4 });
    const declined = [
      ...start,
      step('permissions', 'permissions', 'permissionsGranted'),
      step('welcome', 'conversation', 'declined'),
    ];
    expect(flowProgress(flow, at('goodbye', declined))).toEqual({ step: 3, total: 3 });
  });

  it('a node without a screen is not a step: at a check, the next screen is the step shown', () => {
    const flow = asFlow([
      { id: 's', type: 'start', outcome: 'mail' },
      { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'check' } },
      {
        id: 'check',
        type: 'data_validation',
        validation: { field: 'extractedData.email', action: 'exists' },
        outcomes: [
          { id: 'ok', condition: 'passed', targetNodeId: 'face' },
          { id: 'ko', condition: 'failed', targetNodeId: 'e' },
        ],
      },
      { id: 'face', type: 'face_scan', outcomes: { passed: 'e' } },
      { id: 'e', type: 'end' },
    ]);
    const path = [step('s', 'start', 'next'), step('mail', 'enter_email', 'emailEntered')];
    expect(flowProgress(flow, at('check', path))).toEqual({ step: 2, total: 2 });
    const checked = [...path, step('check', 'data_validation', 'ok')];
    expect(flowProgress(flow, at('face', checked))).toEqual({ step: 2, total: 2 });
  });

  it('nothing to show once the flow has ended, or when no screen is left', () => {
    const flow = sampleFlows.minimal();
    expect(flowProgress(flow, at('end', [step('start', 'start', 'next')]))).toBeNull();
    const ended: FlowPosition = { nodeId: null, nodeType: null, status: 'complete', path: [] };
    expect(flowProgress(sampleFlows.fullKyc(), ended)).toBeNull();
  });

  it('a loop (refused by the validator) ends the count rather than running forever', () => {
    const loop = [
      { id: 's', type: 'start', outcome: 'a' },
      { id: 'a', type: 'enter_email', outcomes: { emailEntered: 'b' } },
      { id: 'b', type: 'face_scan', outcomes: { passed: 'a' } },
    ] as unknown as FlowNode[];
    expect(flowProgress(loop, at('a', []))).toEqual({ step: 1, total: 2 });
  });
});
