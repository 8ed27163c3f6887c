import type { ErrorDetail } from '../../core/api';
import { outcomesOf, type Flow } from '../../core/flow';
import type { Mode } from '../store/types';

/**
 * What is wrong with a create's `testOutcomes` (node id → scripted outcome), every problem at
 * once: the field under a live key, an id that is no node of the flow, an outcome the node's kind
 * does not have (`outcomesOf`, the same list the tester's panel offers). `flow` is null when the
 * flow itself is invalid: its own problems are reported and the ids cannot be checked yet.
 *
 * @example
 * testOutcomeProblems({ perm: 'verified' }, flow, 'test');
 * // [{ path: 'testOutcomes.perm', nodeId: 'perm', message: "'verified' is not an outcome of the permissions node 'perm'; …" }]
 */
export function testOutcomeProblems(
  testOutcomes: Readonly<Record<string, string>>,
  flow: Flow | null,
  mode: Mode,
): ErrorDetail[] {
  if (mode !== 'test') {
    return [
      {
        path: 'testOutcomes',
        message:
          'testOutcomes is for test mode only (an sk_test_ key): a live session ends each node with what the user does',
      },
    ];
  }
  if (!flow) return [];
  const problems: ErrorDetail[] = [];
  for (const [nodeId, outcome] of Object.entries(testOutcomes)) {
    const path = `testOutcomes.${nodeId}`;
    const node = flow.find((n) => n.id === nodeId);
    if (!node) {
      problems.push({ path, message: `no node of the flow has the id '${nodeId}'` });
      continue;
    }
    const outcomes = outcomesOf(node);
    if (outcomes.length === 0) {
      problems.push({
        path,
        nodeId,
        message: `the ${node.type} node '${nodeId}' has no outcome to script`,
      });
    } else if (!outcomes.includes(outcome)) {
      problems.push({
        path,
        nodeId,
        message: `'${outcome}' is not an outcome of the ${node.type} node '${nodeId}'; its outcomes are ${outcomes.join(', ')}`,
      });
    }
  }
  return problems;
}
