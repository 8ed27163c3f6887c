import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/api';

/** What a flow is, whatever the key order it was sent in (docs/decisions.md, `flowId`). */
export interface FlowIdentity {
  /** SHA-256 of the flow's canonical JSON (keys sorted), hex: the key it is stored under. */
  hash: string;
  /** `flow_` + the first 16 hex characters of `hash`: a session's `flowId` when none is given. */
  flowId: string;
}

/**
 * The one identity of a flow: sessions of the same flow share it whatever the key order, and
 * the store keeps each flow once under it.
 *
 * @example
 * flowIdentity([{ id: 's', type: 'start', outcome: 'e' }, { id: 'e', type: 'end' }]).flowId; // 'flow_…'
 */
export function flowIdentity(flow: unknown): FlowIdentity {
  const hash = createHash('sha256').update(canonicalJson(flow)).digest('hex');
  return { hash, flowId: `flow_${hash.slice(0, 16)}` };
}
