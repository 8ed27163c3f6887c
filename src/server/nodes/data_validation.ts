/**
 * `data_validation`: nobody acts on it. As soon as a session arrives, the server checks one field
 * of the session's data (decisions.md) and moves along the first outcome whose condition is the
 * result; when none takes it the flow cannot go on and the session ends `incomplete`.
 */
import { pickCheckOutcome, runValidation } from '../flow/dataValidation';
import type { ServerNode } from './types';

export const dataValidation: ServerNode<'data_validation'> = {
  automatic(node, s, now) {
    const result = runValidation(
      node.validation,
      {
        providedData: s.settings.providedData,
        extractedData: s.report.extractedData ?? {},
        metadata: s.settings.metadata,
      },
      now,
    );
    const report = { check: result, field: node.validation.field, action: node.validation.action };
    const outcome = pickCheckOutcome(node.outcomes, result);
    return outcome === null
      ? { outcome: null, recorded: { outcome: result, result }, report }
      : { outcome, report };
  },
};
