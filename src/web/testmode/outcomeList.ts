import { outcomesOf } from '../../core/flow';
import type { FlowNode } from '../api/types';

/** One button of the test-mode outcome panel. */
export interface PanelOutcome {
  /** The outcome key (or a conversation/data_validation outcome id) sent to the server. */
  outcome: string;
  /** The id of the node it leads to; null when it has no target (the session ends incomplete). */
  target: string | null;
  /** A conversation outcome's condition, shown so the tester knows which branch it is. */
  condition?: string;
}

/**
 * Every outcome the tester may choose for a node, in the node's own order: all the keys of its
 * type (an omitted key is still a legal outcome that ends the session incomplete) or its
 * conditional outcomes.
 *
 * @example
 * panelOutcomes({ id: 'm', type: 'enter_email', outcomes: { emailEntered: 'otp' } });
 * // [{ outcome: 'emailEntered', target: 'otp' }, { outcome: 'canceled', target: null }]
 */
export function panelOutcomes(node: FlowNode): PanelOutcome[] {
  const raw = (node as { outcomes?: unknown }).outcomes;
  if (Array.isArray(raw)) {
    return (raw as { id: string; condition?: string; targetNodeId?: string }[]).map((o) => ({
      outcome: o.id,
      target: o.targetNodeId ?? null,
      condition: o.condition ?? '',
    }));
  }
  const map = (raw ?? {}) as Record<string, string | undefined>;
  return outcomesOf(node).map((outcome) => ({ outcome, target: map[outcome] ?? null }));
}
