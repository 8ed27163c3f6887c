import { describe, expect, it } from 'vitest';
import { nodeRoutes } from '../../core/flow/machine-build';
import { storedFlowMachine } from '../../core/flow/stored-machine';
import type { FlowNode } from '../api/types';
import { panelOutcomes } from './outcomeList';

const node = (n: Record<string, unknown>) => n as unknown as FlowNode;

/** The panel of a node of a flow, routed by that flow's machine as the page runs it. */
function panelOf(n: FlowNode, ...others: string[]) {
  const flow = [
    node({ id: 'start', type: 'start', outcome: n.id }),
    n,
    ...others.map((id) => node({ id, type: 'end' })),
  ];
  return panelOutcomes(n, nodeRoutes(storedFlowMachine(flow), n.id));
}

describe('panelOutcomes', () => {
  it('lists every key of a fixed-outcome node, routed or not, in the spec order', () => {
    expect(
      panelOf(
        node({ id: 'o', type: 'two_factor_email', outcomes: { verified: 'end', cancelled: 'x' } }),
        'end',
        'x',
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
      panelOf(
        node({
          id: 'c',
          type: 'conversation',
          prompt: 'Ready?',
          outcomes: [
            { id: 'yes', condition: 'The user agrees', targetNodeId: 'a' },
            { id: 'else', condition: '', targetNodeId: 'b' },
          ],
        }),
        'a',
        'b',
      ),
    ).toEqual([
      { outcome: 'yes', target: 'a', condition: 'The user agrees' },
      { outcome: 'else', target: 'b', condition: '' },
    ]);
  });

  it('gives the permissions and camera nodes all their keys', () => {
    expect(
      panelOf(node({ id: 'p', type: 'permissions', outcomes: {} })).map((o) => o.outcome),
    ).toEqual(['permissionsGranted', 'permissionsDenied']);
    expect(
      panelOf(node({ id: 'l', type: 'liveness_detection', outcomes: {} })).map((o) => o.outcome),
    ).toEqual(['livenessDetected', 'deepfakeDetected', 'noFace', 'inconclusive']);
  });

  it('routes each outcome where the machine says, not where the node says', () => {
    const mail = node({ id: 'm', type: 'enter_email', outcomes: { emailEntered: 'otp' } });
    expect(panelOutcomes(mail, [{ outcome: 'emailEntered', target: 'elsewhere' }])).toEqual([
      { outcome: 'emailEntered', target: 'elsewhere' },
      { outcome: 'canceled', target: null },
    ]);
  });
});
