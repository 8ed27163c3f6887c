import { FLOW_LIMITS } from './limits';
import type { NodeChecks } from './kinds';
import type { FlowProblem } from './problems';
import { checkGraph } from './validate-graph';
import { inspectNode } from './validate-nodes';

/**
 * Every problem of a flow at once, in node order; `[]` when the flow is valid. `extraChecks` add
 * rules of node types to those a flow needs to run (a new session's flow also meets
 * `CREATION_CHECKS`).
 * @example validateFlow([{ id: 's', type: 'start', outcome: 'e' }, { id: 'e', type: 'end' }]) // []
 * @example validateFlow({ nodes: [], edges: [] })[0].message // 'flow must be an array of nodes; …'
 */
export function validateFlow(input: unknown, extraChecks: NodeChecks = {}): FlowProblem[] {
  if (!Array.isArray(input)) return [notAnArray(input)];
  const problems: FlowProblem[] = [];
  if (input.length > FLOW_LIMITS.maxNodes)
    problems.push({
      path: 'flow',
      message: `the flow has ${input.length} nodes; at most ${FLOW_LIMITS.maxNodes} are allowed`,
    });
  const nodes = input.map((raw: unknown, index) => inspectNode(raw, index, problems, extraChecks));
  checkGraph(nodes, problems);
  if (problems.length === 0) return problems;
  return capped(inNodeOrder(problems));
}

function notAnArray(input: unknown): FlowProblem {
  const isGraphForm =
    input !== null && typeof input === 'object' && ('nodes' in input || 'edges' in input);
  return {
    path: 'flow',
    message: isGraphForm
      ? 'flow must be an array of nodes; the {nodes, edges} form is not accepted: send the ' +
        'nodes as an array, each node naming its targets in its own outcomes'
      : 'flow must be an array of nodes',
  };
}

function nodeIndex(problem: FlowProblem): number {
  const match = /^flow\[(\d+)\]/.exec(problem.path);
  return match ? Number(match[1]) : -1;
}

function inNodeOrder(problems: FlowProblem[]): FlowProblem[] {
  return problems
    .map((problem, order) => ({ problem, order, index: nodeIndex(problem) }))
    .sort((a, b) => a.index - b.index || a.order - b.order)
    .map((entry) => entry.problem);
}

function capped(problems: FlowProblem[]): FlowProblem[] {
  if (problems.length <= FLOW_LIMITS.maxProblems) return problems;
  const rest = problems.length - FLOW_LIMITS.maxProblems;
  return [
    ...problems.slice(0, FLOW_LIMITS.maxProblems),
    { path: 'flow', message: `… and ${rest} more problems not listed` },
  ];
}
