import { targetsOf } from '../../core/flow';
import type { FlowNode } from '../api/types';
import { devicesFor } from '../nodes/devices';

/**
 * Whether the camera may still be needed from `nodeId` on: the node itself or any node its
 * outcomes can lead to needs it (`devicesFor`). When none does, the session's recording lets the
 * camera go (its light goes off) instead of filming the rest of the session.
 *
 * @example
 * cameraAhead(flow, 'otp'); // false once the last camera node is behind
 */
export function cameraAhead(flow: readonly FlowNode[], nodeId: string): boolean {
  const byId = new Map(flow.map((n) => [n.id, n]));
  const seen = new Set<string>([nodeId]);
  const queue = [nodeId];
  for (let head = 0; head < queue.length; head++) {
    const node = byId.get(queue[head] as string);
    if (!node) continue;
    if (devicesFor(node, { speechRecognition: false }).camera) return true;
    // The start node moves on by itself, to its one `outcome`.
    const targets =
      node.type === 'start' ? [node.outcome] : targetsOf(node).map(([, target]) => target);
    for (const target of targets) {
      if (target !== undefined && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return false;
}
