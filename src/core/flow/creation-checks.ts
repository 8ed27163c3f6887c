/**
 * Rules a flow meets to start a new session, beyond what running one needs: the server's
 * `POST /sessions` validates with them, while `compileFlow` (on the server and in the page) does
 * not. So a session stored before a rule existed still runs, and the page does not download what
 * only these rules use (re2js is about 48 KB gzip).
 */
import type { NodeChecks } from './kinds';
import type { LooseNode, NodeIssue } from './kinds/common';
import { recordOf } from './kinds/common';
import { patternProblem } from './pattern';

/**
 * The creation rules, by node type, for `validateFlow(flow, CREATION_CHECKS)`.
 * @example validateFlow(flow, CREATION_CHECKS) // …, { path: 'flow[8].validation.value', nodeId: 'check', message: 'value is not a valid RE2 regular expression: …' }
 */
export const CREATION_CHECKS: NodeChecks = {
  data_validation: checkMatchesPattern,
};

/** A `matches` pattern is one RE2 can run within the pattern bounds (pattern.ts). */
function checkMatchesPattern(node: LooseNode): NodeIssue[] {
  const { action, value } = recordOf(node.validation);
  if (action !== 'matches' || typeof value !== 'string') return [];
  const problem = patternProblem(value);
  return problem === undefined ? [] : [{ field: '.validation.value', message: problem }];
}
