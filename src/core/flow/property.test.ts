import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advanceFlow, startFlow } from './advance';
import { compileFlow } from './compile';
import { FIXED_OUTCOMES, isFixedOutcomeType } from './kinds';
import type { Flow, FlowNode, NodeType } from './kinds';
import { outcomesOf, targetsOf } from './outcomes';
import { FlowValidationError } from './problems';
import { validateFlow } from './validate';

// The computed-routing kinds (field_condition, external_call) have their own tests.
type WorkType = Exclude<NodeType, 'start' | 'end' | 'field_condition' | 'external_call'>;
const WORK_TYPES: WorkType[] = [
  ...(Object.keys(FIXED_OUTCOMES) as WorkType[]),
  'conversation',
  'data_validation',
];
const CONDITIONS = ['', 'passed', 'failed'];

/** The random choices one node of a generated flow is made from. */
interface NodeSpec {
  parent: number;
  type: number;
  end: boolean;
  extra: number[];
}

const specs = fc.array(
  fc.record({
    parent: fc.nat(),
    type: fc.nat(),
    end: fc.boolean(),
    extra: fc.array(fc.nat(), { maxLength: 5 }),
  }),
  { minLength: 1, maxLength: 18 },
);

const id = (index: number) => `n${index}`;

/**
 * A valid flow from random choices: node 0 is the start, the last node an end; every other node
 * hangs under an earlier parent (so all are reachable) and may route further outcomes to any
 * later node or leave them without a target. Edges only go forward, so the flow is a DAG.
 */
function buildFlow(nodeSpecs: NodeSpec[]): Flow {
  const count = nodeSpecs.length + 2;
  const children: number[][] = Array.from({ length: count }, () => []);
  for (let i = 2; i < count; i++) {
    const spec = nodeSpecs[i - 2] as NodeSpec;
    children[1 + (spec.parent % (i - 1))]?.push(i);
  }
  const laterNode = (i: number, n: number) => i + 1 + (n % (count - i - 1));
  const flow: FlowNode[] = [{ id: id(0), type: 'start', outcome: id(1) }];
  for (let i = 1; i < count; i++) {
    const spec = nodeSpecs[i - 1];
    const mine = children[i] ?? [];
    if (!spec || (mine.length === 0 && spec.end)) {
      flow.push({ id: id(i), type: 'end' });
      continue;
    }
    const fits = WORK_TYPES.filter(
      (t) => !isFixedOutcomeType(t) || FIXED_OUTCOMES[t].length >= mine.length,
    );
    const type = fits[spec.type % fits.length] as WorkType;
    if (type === 'conversation' || type === 'data_validation') {
      const targets = [...mine, ...spec.extra.map((n) => laterNode(i, n))];
      if (targets.length === 0) targets.push(laterNode(i, spec.type));
      const outcomes = targets.map((t, k) => ({
        id: `o${k}`,
        condition: CONDITIONS[(spec.type + k) % 3] as string,
        targetNodeId: id(t),
      }));
      flow.push(
        type === 'conversation'
          ? { id: id(i), type, prompt: 'Say: Hello', outcomes }
          : {
              id: id(i),
              type,
              validation: { field: 'providedData.x', action: 'exists' },
              outcomes,
            },
      );
    } else {
      const outcomes: Record<string, string> = {};
      FIXED_OUTCOMES[type].forEach((key, k) => {
        const child = mine[k];
        const extra = spec.extra[k - mine.length];
        if (child !== undefined) outcomes[key] = id(child);
        else if (extra !== undefined && extra % 3 !== 0) outcomes[key] = id(laterNode(i, extra));
      });
      flow.push({ id: id(i), type, outcomes } as FlowNode);
    }
  }
  return flow;
}

const indexOfId = (nodeId: string) => Number(nodeId.slice(1));

describe('random DAGs (fast-check)', () => {
  it('are valid, and a walk of random outcomes always reaches a final state, moving forward', () => {
    fc.assert(
      fc.property(
        specs,
        fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
        (nodeSpecs, picks) => {
          const flow = buildFlow(nodeSpecs);
          expect(validateFlow(flow)).toEqual([]);
          let position = startFlow(flow);
          for (let step = 0; position.status === 'active'; step++) {
            expect(step).toBeLessThan(flow.length);
            const node = flow[indexOfId(position.nodeId ?? '')] as FlowNode;
            const outcomes = outcomesOf(node);
            const outcome = outcomes[(picks[step % picks.length] ?? 0) % outcomes.length] as string;
            const result = advanceFlow(flow, position, { nodeId: node.id, outcome });
            if (!result.ok) throw new Error(result.message);
            if (result.position.nodeId !== null)
              expect(indexOfId(result.position.nodeId)).toBeGreaterThan(indexOfId(node.id));
            position = result.position;
          }
          expect(['complete', 'incomplete']).toContain(position.status);
          expect(position.path.length).toBeLessThan(flow.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reach a final state on every path: every outcome of every reachable node leads on', () => {
    fc.assert(
      fc.property(specs, (nodeSpecs) => {
        const flow = buildFlow(nodeSpecs);
        const first = startFlow(flow);
        const queue = [first];
        const seen = new Set<string>();
        let finals = 0;
        while (queue.length > 0) {
          const position = queue.shift();
          if (!position?.nodeId || seen.has(position.nodeId)) continue;
          seen.add(position.nodeId);
          const node = flow[indexOfId(position.nodeId)] as FlowNode;
          expect(outcomesOf(node).length).toBeGreaterThan(0);
          for (const outcome of outcomesOf(node)) {
            const result = advanceFlow(flow, position, { nodeId: node.id, outcome });
            if (!result.ok) throw new Error(result.message);
            if (result.position.status === 'active') queue.push(result.position);
            else finals++;
          }
        }
        expect(finals).toBeGreaterThan(0);
        // Every node but the start and the ends was visited: all are reachable by construction.
        expect(seen.size).toBe(flow.filter((n) => n.type !== 'start' && n.type !== 'end').length);
      }),
      { numRuns: 100 },
    );
  });

  it('refuse any back edge as a cycle that runs through it', () => {
    fc.assert(
      fc.property(specs, fc.nat(), fc.nat(), fc.nat(), (nodeSpecs, pickFrom, pickTo, pickSlot) => {
        const flow = buildFlow(nodeSpecs);
        const sources = flow.filter((n) => n.type !== 'start' && n.type !== 'end');
        fc.pre(sources.length > 0);
        const from = sources[pickFrom % sources.length] as FlowNode;
        const ancestors = ancestorsOf(flow, from.id);
        const to = ancestors[pickTo % ancestors.length] as string;
        addEdge(from, to, pickSlot);

        const problems = validateFlow(flow);
        const cycles = problems.filter((p) => p.message.startsWith('cycle: '));
        expect(cycles.length).toBeGreaterThan(0);
        for (const problem of cycles) {
          const names = problem.message.slice('cycle: '.length).split(';')[0]?.split(' → ') ?? [];
          expect(names[0]).toBe(names[names.length - 1]);
          const pairs = names.slice(1).map((name, k) => `${names[k]}>${name}`);
          for (const pair of pairs) expect(edgesOf(flow)).toContain(pair);
          expect(pairs).toContain(`${from.id}>${to}`);
        }
        expect(() => compileFlow(flow)).toThrow(FlowValidationError);
      }),
      { numRuns: 150 },
    );
  });
});

function edgesOf(flow: Flow): string[] {
  return flow.flatMap((node) => {
    if (node.type === 'start') return [`${node.id}>${node.outcome}`];
    return targetsOf(node).flatMap(([, target]) => (target ? [`${node.id}>${target}`] : []));
  });
}

/** The nodes that reach `nodeId` (itself included): a new edge to any of them closes a cycle. */
function ancestorsOf(flow: Flow, nodeId: string): string[] {
  const edges = edgesOf(flow).map((e) => e.split('>') as [string, string]);
  const found = new Set([nodeId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [a, b] of edges)
      if (found.has(b) && !found.has(a)) {
        found.add(a);
        grew = true;
      }
  }
  return [...found].sort();
}

function addEdge(node: FlowNode, to: string, slot: number): void {
  if (node.type === 'conversation' || node.type === 'data_validation') {
    node.outcomes.push({ id: 'back', condition: '', targetNodeId: to });
  } else if (isFixedOutcomeType(node.type)) {
    const keys = FIXED_OUTCOMES[node.type];
    (node as { outcomes: Record<string, string> }).outcomes[keys[slot % keys.length] as string] =
      to;
  }
}
