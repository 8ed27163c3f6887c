import type { GraphEdge } from './cycles';
import { findCycles, reachableFrom } from './cycles';
import type { FlowProblem } from './problems';
import type { InspectedNode, RawEdge } from './validate-nodes';

/**
 * The rules over the whole graph: exactly one start, at least one end, every target exists, no
 * cycle (each back edge reported with the cycle it closes), every node reachable from the start
 * (judged only when every route of every node could be read and leads to a node).
 * Problems are appended to `problems`.
 * @example checkGraph(nodes, problems)
 */
export function checkGraph(nodes: readonly InspectedNode[], problems: FlowProblem[]): void {
  const indexOfId = new Map<string, number>();
  for (const node of nodes) {
    if (node.id === undefined) continue;
    const first = indexOfId.get(node.id);
    if (first === undefined) indexOfId.set(node.id, node.index);
    else
      problems.push({
        path: `flow[${node.index}].id`,
        nodeId: node.id,
        message: `duplicate node id '${node.id}': flow[${first}] has it too`,
      });
  }

  const starts = nodes.filter((n) => n.type === 'start');
  const [firstStart] = starts;
  if (!firstStart)
    problems.push({ path: 'flow', message: 'the flow has no start node; it needs exactly one' });
  for (const extra of starts.slice(1))
    problems.push({
      path: `flow[${extra.index}]`,
      ...withId(extra),
      message: `a second start node: a flow has exactly one (the first is flow[${firstStart?.index ?? 0}])`,
    });
  if (!nodes.some((n) => n.type === 'end'))
    problems.push({ path: 'flow', message: 'the flow has no end node; it needs at least one' });

  const adjacency: GraphEdge<RawEdge>[][] = nodes.map(() => []);
  let routesComplete = !nodes.some((node) => node.routesBroken);
  for (const node of nodes) {
    for (const edge of node.edges) {
      const to = indexOfId.get(edge.target);
      if (to === undefined) {
        routesComplete = false;
        problems.push({
          path: edge.path,
          ...withId(node),
          message: `no node has the id '${edge.target}'`,
        });
      } else adjacency[node.index]?.push({ to, data: edge });
    }
  }

  const label = (index: number) => nodes[index]?.id ?? `flow[${index}]`;
  for (const cycle of findCycles(adjacency))
    problems.push({
      path: cycle.closingEdge.path,
      ...withId(nodes[cycle.from]),
      message: `cycle: ${cycle.vertices.map(label).join(' → ')}; a flow only moves forward`,
    });

  // Until every route can be followed, a node may look unreachable only because of another
  // problem, so reachability is judged once the routes are sound.
  if (routesComplete && starts.length === 1 && firstStart) {
    const reached = reachableFrom(adjacency, firstStart.index);
    for (const node of nodes)
      if (!reached[node.index] && node.id !== undefined && indexOfId.get(node.id) === node.index)
        problems.push({
          path: `flow[${node.index}]`,
          nodeId: node.id,
          message: `node '${node.id}' cannot be reached from the start node; route an outcome to it or remove it`,
        });
  }
}

function withId(node: InspectedNode | undefined): { nodeId?: string } {
  return node?.id === undefined ? {} : { nodeId: node.id };
}
