import type { EndReason } from './end-reason';
import type { NodeType } from './kinds';

/** One node the session passed through, with the outcome it selected. */
export interface PathStep {
  nodeId: string;
  type: NodeType;
  /** The fixed outcome key, or the chosen outcome's id on conversation and data_validation nodes. */
  outcome: string;
  /** data_validation only: what the check yielded, when the chosen outcome tells. */
  result?: 'passed' | 'failed';
}

/**
 * Where a session stands in its flow. Plain JSON, so the server can store it. `path` holds the
 * nodes passed (never the start or end node), in order.
 */
export interface FlowPosition {
  /** The node the user is on; null once the flow has ended. */
  nodeId: string | null;
  nodeType: NodeType | null;
  status: 'active' | 'complete' | 'incomplete';
  path: PathStep[];
  /** Why an `incomplete` session ended, in the user's terms (never a verdict); set by the server. */
  endReason?: EndReason;
}

export type AdvanceResult =
  | { ok: true; position: FlowPosition }
  | { ok: false; reason: 'finished' | 'not_current_node' | 'unknown_outcome'; message: string };
