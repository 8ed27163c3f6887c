import { describe, expect, it } from 'vitest';
import type { GraphEdge } from './cycles';
import { findCycles, reachableFrom } from './cycles';

const graph = (edges: [number, number][], size: number): GraphEdge<string>[][] => {
  const adjacency: GraphEdge<string>[][] = Array.from({ length: size }, () => []);
  for (const [from, to] of edges) adjacency[from]?.push({ to, data: `${from}>${to}` });
  return adjacency;
};

describe('findCycles', () => {
  it('finds nothing in a DAG, diamonds included', () => {
    expect(
      findCycles(
        graph(
          [
            [0, 1],
            [0, 2],
            [1, 3],
            [2, 3],
          ],
          4,
        ),
      ),
    ).toEqual([]);
  });

  it('names the vertices of a cycle in order, with the edge that closes it', () => {
    expect(
      findCycles(
        graph(
          [
            [0, 1],
            [1, 2],
            [2, 3],
            [3, 1],
          ],
          4,
        ),
      ),
    ).toEqual([{ vertices: [1, 2, 3, 1], closingEdge: '3>1', from: 3 }]);
  });

  it('reports a self-loop and every back edge', () => {
    expect(
      findCycles(
        graph(
          [
            [0, 0],
            [0, 1],
            [1, 0],
          ],
          2,
        ),
      ).map((c) => c.closingEdge),
    ).toEqual(['0>0', '1>0']);
  });

  it('handles a chain of 100,000 vertices without overflowing the stack', () => {
    const size = 100_000;
    const edges = Array.from({ length: size - 1 }, (_, i): [number, number] => [i, i + 1]);
    expect(findCycles(graph(edges, size))).toEqual([]);
    edges.push([size - 1, 0]);
    const [cycle] = findCycles(graph(edges, size));
    expect(cycle?.vertices).toHaveLength(size + 1);
  });
});

describe('reachableFrom', () => {
  it('marks what the start reaches', () => {
    expect(
      reachableFrom(
        graph(
          [
            [0, 1],
            [2, 3],
          ],
          4,
        ),
        0,
      ),
    ).toEqual([true, true, false, false]);
  });
});
