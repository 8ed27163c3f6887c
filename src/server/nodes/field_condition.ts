/**
 * `field_condition`: nobody acts on it. As soon as a session arrives, the server tries the rules
 * over the session's provided and extracted data (`src/server/flow/fieldCondition.ts`) and moves
 * along the first that holds, else the default.
 */
import { DEFAULT_OUTCOME, ruleOutcome } from '../../core/flow/computed-routes';
import { firstRuleHolding } from '../flow/fieldCondition';
import type { ServerNode } from './types';

export const fieldCondition: ServerNode<'field_condition'> = {
  automatic(node, s) {
    const rule = firstRuleHolding(node.rules, {
      providedData: s.settings.providedData,
      extractedData: s.report.extractedData ?? {},
    });
    return { outcome: rule === null ? DEFAULT_OUTCOME : ruleOutcome(rule), report: { rule } };
  },
};
