import { describe, expect, it } from 'vitest';
import * as core from '../../core/flow';
import type { FlowNode, Position } from '../api/types';
import { followFlow } from './followFlow';

const FLOW = [
  { id: 'start', type: 'start', outcome: 'p' },
  { id: 'p', type: 'permissions', outcomes: { permissionsGranted: 'm', permissionsDenied: 'no' } },
  { id: 'm', type: 'enter_email', outcomes: { emailEntered: 'yes' } },
  { id: 'yes', type: 'end' },
  { id: 'no', type: 'end' },
] as unknown as FlowNode[];

const pos = (
  nodeId: string | null,
  path: Position['path'],
  status: Position['status'] = 'active',
) => ({ nodeId, nodeType: null, status, path }) as Position;
const granted = { nodeId: 'p', type: 'permissions', outcome: 'permissionsGranted' } as const;

describe('followFlow', () => {
  it('agrees with a server that routed as the flow says', () => {
    const r = followFlow(core, FLOW, pos('m', [granted]));
    expect(r).toEqual({ node: FLOW[2], agreed: true });
    expect(
      followFlow(
        core,
        FLOW,
        pos(null, [{ nodeId: 'p', type: 'permissions', outcome: 'permissionsDenied' }], 'complete'),
      ),
    ).toEqual({ node: null, agreed: true });
  });

  it("follows the server's node when the flow machine reaches another", () => {
    expect(followFlow(core, FLOW, pos('m', []))).toEqual({ node: FLOW[2], agreed: false });
    expect(followFlow(core, FLOW, pos('m', [granted], 'complete'))).toEqual({
      node: null,
      agreed: false,
    });
  });

  it('says nothing about agreement before the core has loaded', () => {
    expect(followFlow(null, FLOW, pos('m', [granted]))).toEqual({ node: FLOW[2], agreed: null });
  });

  it('disagrees, without throwing, when the path cannot be replayed', () => {
    const bad = pos('m', [{ nodeId: 'p', type: 'permissions', outcome: 'noSuchOutcome' }]);
    expect(followFlow(core, FLOW, bad)).toEqual({ node: FLOW[2], agreed: false });
  });
});
