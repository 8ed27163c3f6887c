import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../api/types';
import { panelOutcomes } from './outcomeList';

const node = (n: Record<string, unknown>) => n as unknown as FlowNode;

describe('panelOutcomes', () => {
  it('lists every key of a fixed-outcome node, routed or not, in the spec order', () => {
    expect(
      panelOutcomes(
        node({ id: 'o', type: 'two_factor_email', outcomes: { verified: 'end', cancelled: 'x' } }),
      ),
    ).toEqual([
      { outcome: 'verified', target: 'end' },
      { outcome: 'delivery_failed', target: null },
      { outcome: 'failed_unverified', target: null },
      { outcome: 'cancelled', target: 'x' },
      { outcome: 'error', target: null },
    ]);
  });

  it('lists conversation outcomes with their conditions, in order', () => {
    expect(
      panelOutcomes(
        node({
          id: 'c',
          type: 'conversation',
          prompt: 'Ready?',
          outcomes: [
            { id: 'yes', condition: 'The user agrees', targetNodeId: 'a' },
            { id: 'else', condition: '', targetNodeId: 'b' },
          ],
        }),
      ),
    ).toEqual([
      { outcome: 'yes', target: 'a', condition: 'The user agrees' },
      { outcome: 'else', target: 'b', condition: '' },
    ]);
  });

  it('gives the permissions and camera nodes all their keys', () => {
    expect(
      panelOutcomes(node({ id: 'p', type: 'permissions', outcomes: {} })).map((o) => o.outcome),
    ).toEqual(['permissionsGranted', 'permissionsDenied']);
    expect(
      panelOutcomes(node({ id: 'l', type: 'liveness_detection', outcomes: {} })).map(
        (o) => o.outcome,
      ),
    ).toEqual(['livenessDetected', 'deepfakeDetected', 'noFace', 'inconclusive']);
  });
});
