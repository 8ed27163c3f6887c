/** An edge of a graph over vertices 0…n-1, with whatever the caller needs to report it. */
export interface GraphEdge<T> {
  to: number;
  data: T;
}

/** One cycle: the vertices in order (first repeated at the end) and the edge that closes it. */
export interface Cycle<T> {
  vertices: number[];
  closingEdge: T;
  from: number;
}

/**
 * Every back edge of a depth-first search, each with the cycle it closes. Iterative (no stack
 * overflow on long chains) and linear in vertices plus edges, apart from copying each cycle out.
 * A graph is acyclic exactly when this returns nothing.
 * @example findCycles([[{ to: 1, data: 'a' }], [{ to: 0, data: 'b' }]]) // [{ vertices: [0, 1, 0], closingEdge: 'b', from: 1 }]
 */
export function findCycles<T>(adjacency: readonly (readonly GraphEdge<T>[])[]): Cycle<T>[] {
  const WHITE = 0;
  const GREY = 1;
  const BLACK = 2;
  const colour = new Uint8Array(adjacency.length);
  const stackPosition = new Int32Array(adjacency.length).fill(-1);
  const cycles: Cycle<T>[] = [];
  const stack: number[] = [];
  const nextEdge: number[] = [];

  for (let root = 0; root < adjacency.length; root++) {
    if (colour[root] !== WHITE) continue;
    colour[root] = GREY;
    stackPosition[root] = 0;
    stack.push(root);
    nextEdge.push(0);
    while (stack.length > 0) {
      const top = stack.length - 1;
      const vertex = stack[top] as number;
      const edges = adjacency[vertex] ?? [];
      const i = nextEdge[top] as number;
      if (i >= edges.length) {
        colour[vertex] = BLACK;
        stackPosition[vertex] = -1;
        stack.pop();
        nextEdge.pop();
        continue;
      }
      nextEdge[top] = i + 1;
      const edge = edges[i] as GraphEdge<T>;
      if (colour[edge.to] === GREY) {
        const start = stackPosition[edge.to] as number;
        cycles.push({
          vertices: [...stack.slice(start), edge.to],
          closingEdge: edge.data,
          from: vertex,
        });
      } else if (colour[edge.to] === WHITE) {
        colour[edge.to] = GREY;
        stackPosition[edge.to] = stack.length;
        stack.push(edge.to);
        nextEdge.push(0);
      }
    }
  }
  return cycles;
}

/**
 * The vertices reachable from `start`, as a boolean per vertex.
 * @example reachableFrom([[{ to: 1, data: 0 }], [], []], 0) // [true, true, false]
 */
export function reachableFrom<T>(
  adjacency: readonly (readonly GraphEdge<T>[])[],
  start: number,
): boolean[] {
  const seen = new Array<boolean>(adjacency.length).fill(false);
  const queue = [start];
  seen[start] = true;
  for (let head = 0; head < queue.length; head++) {
    for (const edge of adjacency[queue[head] as number] ?? []) {
      if (!seen[edge.to]) {
        seen[edge.to] = true;
        queue.push(edge.to);
      }
    }
  }
  return seen;
}
