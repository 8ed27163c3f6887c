import { outcomesOf } from '../../core/flow';
import type { RouteTaken } from '../../core/flow';
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
 * Every outcome the tester may choose for a node, in the node's own order, from the core's
 * tables (`outcomesOf`: all the keys of a fixed type, an omitted key being a legal outcome that
 * ends the session incomplete, or the conditional outcomes), each with where the flow machine
 * routes it (`routes`, the machine's transitions from the node; an outcome they do not name
 * leads nowhere).
 *
 * @example
 * panelOutcomes({ id: 'm', type: 'enter_email', outcomes: { emailEntered: 'otp' } }, [{ outcome: 'emailEntered', target: 'otp' }]);
 * // [{ outcome: 'emailEntered', target: 'otp' }, { outcome: 'canceled', target: null }]
 */
export function panelOutcomes(node: FlowNode, routes: readonly RouteTaken[]): PanelOutcome[] {
  const targets = new Map(routes.map((r) => [r.outcome, r.target]));
  const conditions = new Map(
    node.type === 'conversation' || node.type === 'data_validation'
      ? node.outcomes.map((o) => [o.id, o.condition ?? ''])
      : [],
  );
  return outcomesOf(node).map((outcome) => {
    const condition = conditions.get(outcome);
    return {
      outcome,
      target: targets.get(outcome) ?? null,
      ...(condition !== undefined ? { condition } : {}),
    };
  });
}
