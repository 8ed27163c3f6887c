import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../api/types';
import { cameraAhead } from './cameraAhead';

const flow = [
  { id: 'start', type: 'start', outcome: 'live' },
  {
    id: 'live',
    type: 'liveness_detection',
    outcomes: { livenessDetected: 'otp', deepfakeDetected: 'end', noFace: 'retry' },
  },
  {
    id: 'otp',
    type: 'two_factor_email',
    outcomes: { verified: 'end', failed_unverified: 'end', cancelled: 'end' },
  },
  {
    id: 'retry',
    type: 'conversation',
    prompt: 'Say: Shall we try again?',
    outcomes: [
      { id: 'yes', condition: 'The user agrees', targetNodeId: 'scan' },
      { id: 'no', condition: '', targetNodeId: 'end' },
    ],
  },
  {
    id: 'scan',
    type: 'face_scan',
    outcomes: { passed: 'end', notPassed: 'end', cancelled: 'end', error: 'end' },
  },
  { id: 'end', type: 'end' },
] as unknown as FlowNode[];

describe('cameraAhead', () => {
  it('is true at a camera node and before one', () => {
    expect(cameraAhead(flow, 'start')).toBe(true);
    expect(cameraAhead(flow, 'live')).toBe(true);
  });

  it('is true where a branch may still lead to a camera node, however far', () => {
    expect(cameraAhead(flow, 'retry')).toBe(true);
  });

  it('is false once no camera node can come: the code step after the liveness, the end', () => {
    expect(cameraAhead(flow, 'otp')).toBe(false);
    expect(cameraAhead(flow, 'end')).toBe(false);
  });

  it('ends on a loop without a camera, and on an unknown node', () => {
    const loop = [
      {
        id: 'a',
        type: 'conversation',
        prompt: 'Say: Hi',
        outcomes: [{ id: 'x', condition: '', targetNodeId: 'b' }],
      },
      {
        id: 'b',
        type: 'conversation',
        prompt: 'Say: Hi',
        outcomes: [{ id: 'y', condition: '', targetNodeId: 'a' }],
      },
    ] as unknown as FlowNode[];
    expect(cameraAhead(loop, 'a')).toBe(false);
    expect(cameraAhead(flow, 'nowhere')).toBe(false);
  });
});
