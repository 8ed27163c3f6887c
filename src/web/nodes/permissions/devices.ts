import type { FlowNode } from '../../api/types';
import type { Devices } from '../kind';

/**
 * The devices a permissions node asks for: both unless its `permissions` field says otherwise.
 *
 * @example
 * devicesOfPermissionsNode({ id: 'p', type: 'permissions', permissions: { microphone: false }, outcomes: {} });
 * // { camera: true, microphone: false }
 */
export function devicesOfPermissionsNode(node: FlowNode): Devices {
  const p = node.type === 'permissions' ? node.permissions : undefined;
  return { camera: p?.camera !== false, microphone: p?.microphone !== false };
}
