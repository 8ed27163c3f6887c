/**
 * Flow core figures: validating and compiling a generated 200-node flow (each run a flow with
 * its own text, so no cache helps), and one step checked by the compiled machine, as the server
 * does on every node result.
 */
import { performance } from 'node:perf_hooks';
import type { Flow, FlowNode, FlowPosition } from '../src/core/flow';
import {
  FIXED_OUTCOMES,
  advanceFlow,
  compileFlow,
  outcomesOf,
  startFlow,
  validateFlow,
} from '../src/core/flow';
import { summarize, type BenchRow } from './types';

const NODES = 200;
const WARMUP = 50;
const RUNS = 400;

/** A deterministic pseudo-random sequence, so every run of the bench measures the same flow. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * A valid flow of `NODES` nodes: a start, 185 work nodes of every type, 14 ends. Each work node's
 * first outcome leads to the next node (so all are reachable); its other outcomes lead to a random
 * later node or stay without a target.
 */
function generateFlow(variant: number): Flow {
  const next = random(42);
  const workTypes = [
    ...Object.keys(FIXED_OUTCOMES),
    'conversation',
    'data_validation',
    'field_condition',
    'external_call',
  ];
  const ends = 14;
  const work = NODES - 1 - ends;
  const id = (i: number) => `node_${i}`;
  const later = (i: number) => id(i + 1 + Math.floor(next() * (NODES - 1 - i)));
  const endAt = (n: number) => id(work + 1 + (n % ends));
  const flow: FlowNode[] = [{ id: id(0), type: 'start', outcome: id(1) }];
  for (let i = 1; i <= work; i++) {
    const type = workTypes[i % workTypes.length] as string;
    if (type === 'conversation' || type === 'data_validation') {
      const outcomes = [id(i + 1), later(i), later(i)].map((target, k) => ({
        id: `o${k}`,
        condition: ['passed', 'failed', ''][k] as string,
        targetNodeId: target,
      }));
      flow.push(
        type === 'conversation'
          ? { id: id(i), type, prompt: `Say: Question ${i} of variant ${variant}`, outcomes }
          : {
              id: id(i),
              type,
              validation: { field: 'providedData.x', action: 'exists' },
              outcomes,
            },
      );
      continue;
    }
    if (type === 'field_condition') {
      const left = { source: 'providedData', field: `k${variant}` } as const;
      flow.push({
        id: id(i),
        type,
        default: id(i + 1),
        // Its rules lead to the end nodes in turn, so every end is reached whatever else is drawn.
        rules: [
          { left, operator: 'gte', right: { type: 'literal', value: i }, outcome: endAt(2 * i) },
          { left, operator: 'exists', outcome: endAt(2 * i + 1) },
        ],
      });
      continue;
    }
    if (type === 'external_call') {
      flow.push({
        id: id(i),
        type,
        outcome: id(i + 1),
        request: {
          url: `https://backend.example/v${variant}/${i}`,
          vars: [{ name: 'n', value: { type: 'literal', value: i } }],
        },
      });
      continue;
    }
    const keys = FIXED_OUTCOMES[type as keyof typeof FIXED_OUTCOMES];
    const outcomes: Record<string, string> = { [keys[0] as string]: id(i + 1) };
    for (const key of keys.slice(1)) if (next() < 0.7) outcomes[key] = later(i);
    flow.push({ id: id(i), type, outcomes } as FlowNode);
  }
  for (let i = work + 1; i < NODES; i++) flow.push({ id: id(i), type: 'end' });
  return flow;
}

function time(runs: number, prepare: (run: number) => Flow, measure: (flow: Flow) => void) {
  const samples: number[] = [];
  for (let run = 0; run < WARMUP + runs; run++) {
    const flow = prepare(run);
    const started = performance.now();
    measure(flow);
    const elapsed = performance.now() - started;
    if (run >= WARMUP) samples.push(elapsed);
  }
  return summarize(samples);
}

export default async function run(): Promise<BenchRow[]> {
  const template = generateFlow(0);
  if (template.length !== NODES) throw new Error(`generated ${template.length} nodes`);
  const problems = validateFlow(template);
  if (problems.length > 0)
    throw new Error(`generated an invalid flow: ${JSON.stringify(problems[0])}`);

  // Each run gets its own flow text (a prompt names the run) so compileFlow's caches never hit.
  let variant = 0;
  const fresh = (): Flow => {
    variant++;
    const text = JSON.stringify(template).replace(/variant 0"/g, `variant ${variant}"`);
    return JSON.parse(text) as Flow;
  };

  const validate = time(RUNS, fresh, (flow) => {
    if (validateFlow(flow).length > 0) throw new Error('invalid');
  });
  const both = time(RUNS, fresh, (flow) => {
    if (validateFlow(flow).length > 0) throw new Error('invalid');
    compileFlow(flow);
  });

  // One server-side step: the machine is cached; the position comes from storage.
  const flow = fresh();
  compileFlow(flow);
  const position: FlowPosition = JSON.parse(JSON.stringify(startFlow(flow))) as FlowPosition;
  const current = flow.find((n) => n.id === position.nodeId);
  const outcome = current ? outcomesOf(current)[0] : undefined;
  if (!outcome) throw new Error('the generated flow starts on a node without outcomes');
  const stepSamples: number[] = [];
  for (let run = 0; run < WARMUP + 2000; run++) {
    const started = performance.now();
    const result = advanceFlow(flow, position, {
      nodeId: position.nodeId ?? '',
      outcome,
    });
    const elapsed = performance.now() - started;
    if (!result.ok) throw new Error(result.message);
    if (run >= WARMUP) stepSamples.push(elapsed);
  }
  const step = summarize(stepSamples);

  return [
    { name: `validateFlow, ${NODES} nodes, median`, value: validate.median, unit: 'ms' },
    { name: `validateFlow, ${NODES} nodes, p90`, value: validate.p90, unit: 'ms' },
    {
      name: `validateFlow + compileFlow, ${NODES} nodes, median`,
      value: both.median,
      unit: 'ms',
      target: '< 2 ms',
    },
    { name: `validateFlow + compileFlow, ${NODES} nodes, p90`, value: both.p90, unit: 'ms' },
    { name: 'advanceFlow (cached machine), median', value: step.median * 1000, unit: 'µs' },
    { name: 'advanceFlow (cached machine), p90', value: step.p90 * 1000, unit: 'µs' },
  ];
}
