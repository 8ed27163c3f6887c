import { lazyChecker } from './checkers';
import { COMPUTED_TYPES, DEFAULT_OUTCOME, computedRoutes, ruleOutcome } from './computed-routes';
import { FLOW_LIMITS } from './limits';
import type { NodeChecks, NodeType } from './kinds';
import { NODE_CHECKS, NODE_SCHEMAS, NODE_TYPES, isNodeType } from './kinds';
import type { FlowProblem } from './problems';
import { joinKey, shown } from './problems';
import { schemaIssues } from './schema-errors';

/** An outcome's route as found in a node, valid or not. */
export interface RawEdge {
  outcome: string;
  target: string;
  path: string;
}

/** What the graph checks need to know of one node. */
export interface InspectedNode {
  index: number;
  /** The id when it is a usable one (a non-empty string that passes the id rules). */
  id?: string;
  type?: NodeType;
  edges: RawEdge[];
  /** Its `outcome`/`outcomes` field has a problem, so its routes may be missing from `edges`. */
  routesBroken?: boolean;
}

const checkers = Object.fromEntries(
  NODE_TYPES.map((type) => [type, lazyChecker(NODE_SCHEMAS[type])]),
) as Record<NodeType, ReturnType<typeof lazyChecker>>;

const KNOWN_TYPES = NODE_TYPES.join(', ');

/**
 * Checks one node on its own (id, type, fields, and the `extraChecks` of its type) and lists its
 * routes for the graph checks. Problems are appended to `problems`.
 * @example inspectNode({ id: 'e', type: 'end' }, 4, problems) // { index: 4, id: 'e', type: 'end', edges: [] }
 */
export function inspectNode(
  raw: unknown,
  index: number,
  problems: FlowProblem[],
  extraChecks: NodeChecks = {},
): InspectedNode {
  const at = `flow[${index}]`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({
      path: at,
      message: `a node must be an object with id, type and outcomes (got ${shown(raw)})`,
    });
    return { index, edges: [] };
  }
  const node = raw as Record<string, unknown>;
  const rawId = node.id;
  const nodeId = typeof rawId === 'string' && rawId !== '' ? rawId : undefined;
  const report = (path: string, message: string) =>
    problems.push(nodeId === undefined ? { path, message } : { path, nodeId, message });

  const idProblem = checkId(rawId);
  if (idProblem) report(`${at}.id`, idProblem);

  const rawType = node.type;
  let type: NodeType | undefined;
  if (rawType === undefined) report(`${at}.type`, `type is required: one of ${KNOWN_TYPES}`);
  else if (!isNodeType(rawType))
    report(`${at}.type`, `unknown node type ${shown(rawType)}; the known types are ${KNOWN_TYPES}`);
  else type = rawType;

  let routesBroken = false;
  if (type) {
    const checker = checkers[type]();
    const issues = checker.Check(node)
      ? []
      : schemaIssues(checker.Errors(node), node, { type, subject: aNode(type) });
    const reported = issues.map((issue) => issue.field);
    const more = [...(NODE_CHECKS[type]?.(node) ?? []), ...(extraChecks[type]?.(node) ?? [])];
    for (const issue of more)
      if (!reported.some((field) => isWithin(issue.field, field))) issues.push(issue);
    for (const issue of issues) report(`${at}${issue.field}`, issue.message);
    routesBroken = issues.some(
      (issue) => isWithin(issue.field, '.outcomes') || isWithin(issue.field, '.outcome'),
    );
  }
  return {
    index,
    ...(idProblem === undefined && nodeId !== undefined ? { id: nodeId } : {}),
    ...(type ? { type } : {}),
    edges: edgesOf(node, type, at),
    ...(routesBroken ? { routesBroken } : {}),
  };
}

/** "a face_scan node", "an end node". */
function aNode(type: NodeType): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} node`;
}

/** Whether `field` is `parent` or lies inside it (`.a.b` and `.a[0]` lie inside `.a`). */
function isWithin(field: string, parent: string): boolean {
  if (!field.startsWith(parent)) return false;
  const rest = field.slice(parent.length);
  return rest === '' || rest.startsWith('.') || rest.startsWith('[');
}

function checkId(id: unknown): string | undefined {
  if (id === undefined) return 'id is required';
  if (typeof id !== 'string') return `id must be a string (got ${shown(id)})`;
  if (id === '') return 'id must not be empty';
  if (id.length > FLOW_LIMITS.maxIdLength)
    return `id must be at most ${FLOW_LIMITS.maxIdLength} characters (it has ${id.length})`;
  if (id.startsWith('#')) return "id may not start with '#'";
  if (id === '__proto__') return "id '__proto__' is reserved";
  return undefined;
}

/**
 * The routes of a node, read leniently so a node with other problems still joins the graph
 * checks and does not make its targets look unreachable.
 */
function edgesOf(node: Record<string, unknown>, type: NodeType | undefined, at: string): RawEdge[] {
  if (type === 'end') return [];
  const edges: RawEdge[] = [];
  if ((type === 'start' || type === undefined) && typeof node.outcome === 'string')
    edges.push({ outcome: 'outcome', target: node.outcome, path: `${at}.outcome` });
  if (type === 'start') return edges;
  if (type !== undefined && COMPUTED_TYPES.has(type)) {
    const rules = Array.isArray(node.rules) ? node.rules : [];
    for (const [outcome, target] of computedRoutes(node)) {
      if (target === undefined) continue;
      const index = rules.findIndex((_, i) => outcome === ruleOutcome(i));
      const path =
        index >= 0
          ? `${at}.rules[${index}].outcome`
          : outcome === DEFAULT_OUTCOME
            ? `${at}.default`
            : `${at}.outcome`;
      if (!edges.some((e) => e.path === path)) edges.push({ outcome, target, path });
    }
    return edges.filter((edge) => edge.target !== '');
  }
  const outcomes = node.outcomes;
  if (Array.isArray(outcomes)) {
    outcomes.forEach((item: unknown, i) => {
      const target = (item as { targetNodeId?: unknown } | null)?.targetNodeId;
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof target === 'string')
        edges.push({
          outcome: typeof id === 'string' ? id : String(i),
          target,
          path: `${at}.outcomes[${i}].targetNodeId`,
        });
    });
  } else if (outcomes !== null && typeof outcomes === 'object') {
    for (const [key, target] of Object.entries(outcomes))
      if (typeof target === 'string')
        edges.push({ outcome: key, target, path: joinKey(`${at}.outcomes`, key) });
  }
  return edges.filter((edge) => edge.target !== '');
}
