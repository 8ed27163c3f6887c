import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { compileFlow } from '../compile';
import { sampleFlows } from '../test-flows';
import {
  CONDITIONAL_NODE_TYPES,
  DECIDERS,
  FAILING_OUTCOMES,
  FIXED_OUTCOMES,
  KINDS,
  KIND_TABLES,
  NODE_CHECKS,
  NODE_SCHEMAS,
  NODE_TYPES,
  USER_OUTCOMES,
  WORK_NODE_TYPES,
} from '.';
import type { LooseNode } from './common';
import { conditionalOutcomes, fixedOutcomes, nodeSchema } from './common';
import type { Kind, OutcomeRules } from './kind';
import { outcomeKeys } from './kind';
import { kindTables } from './tables';

// The recipe of docs/flows.md ("Adding a node kind"), followed with two toy kinds written as a
// kinds/<type>.ts module would be: one with fixed outcomes, one with conditional ones.

const CHIME_OUTCOMES = {
  heard: { decidedBy: 'analysis', failing: false },
  skipped: { decidedBy: 'user', failing: true },
} as const satisfies OutcomeRules;

const ChimeNodeSchema = nodeSchema(
  'toy_chime',
  {
    volume: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    outcomes: fixedOutcomes(outcomeKeys(CHIME_OUTCOMES)),
  },
  'A chime the user should hear.',
);
type ChimeNode = Static<typeof ChimeNodeSchema>;
type ResolvedChimeNode = ChimeNode & { volume: number };

const chime = {
  type: 'toy_chime',
  schema: ChimeNodeSchema,
  defaults: (node: ChimeNode): ResolvedChimeNode => ({ volume: 5, ...node }),
  check: (node: LooseNode) =>
    node.volume === 7 ? [{ field: '.volume', message: 'seven is too loud' }] : [],
  routes: { routing: 'fixed', outcomes: CHIME_OUTCOMES },
  types: {} as { report: { heardAt: number } },
} as const satisfies Kind<
  'toy_chime',
  typeof ChimeNodeSchema,
  ResolvedChimeNode,
  { heardAt: number }
>;

const PollNodeSchema = nodeSchema(
  'toy_poll',
  { outcomes: conditionalOutcomes('The first answer that matches wins.') },
  'A question with branches.',
);

const poll = {
  type: 'toy_poll',
  schema: PollNodeSchema,
  defaults: (node: Static<typeof PollNodeSchema>) => node,
  routes: {
    routing: 'conditional',
    decidedBy: 'server',
    failing: (step) => step.outcome === 'veto',
  },
  types: {} as { report: { answer: string } },
} as const satisfies Kind<'toy_poll', typeof PollNodeSchema>;

describe('adding a node kind (the recipe of docs/flows.md)', () => {
  const tables = kindTables([...Object.values(KINDS), chime, poll]);

  it('lists the new types after the others, and each in the tables of its routing', () => {
    expect(tables.nodeTypes).toEqual([...NODE_TYPES, 'toy_chime', 'toy_poll']);
    expect(tables.fixedOutcomes['toy_chime']).toEqual(['heard', 'skipped']);
    expect(tables.fixedOutcomes).not.toHaveProperty('toy_poll');
    expect(tables.conditionalTypes).toEqual([...CONDITIONAL_NODE_TYPES, 'toy_poll']);
    expect(tables.workTypes).toEqual([...WORK_NODE_TYPES, 'toy_chime', 'toy_poll']);
  });

  it('takes its schema, defaults and checks', () => {
    expect(tables.schemas['toy_chime']).toBe(ChimeNodeSchema);
    const resolve = tables.resolvers['toy_chime'] as (node: ChimeNode) => ResolvedChimeNode;
    expect(resolve({ id: 'c', type: 'toy_chime', outcomes: {} }).volume).toBe(5);
    expect(tables.checks['toy_chime']?.({ volume: 7 })).toEqual([
      { field: '.volume', message: 'seven is too loud' },
    ]);
    expect(tables.checks).not.toHaveProperty('toy_poll');
  });

  it('takes who decides each outcome, and which the page may report for the user', () => {
    expect(tables.deciders['toy_chime']).toEqual({ heard: 'analysis', skipped: 'user' });
    expect(tables.userOutcomes['toy_chime']).toEqual(['skipped']);
  });

  it('takes which steps count against isVerified', () => {
    expect(tables.failingOutcomes.has('skipped')).toBe(true);
    expect(tables.failingOutcomes.has('heard')).toBe(false);
    expect(tables.failing['toy_chime']?.({ outcome: 'skipped' })).toBe(true);
    expect(tables.failing['toy_chime']?.({ outcome: 'heard' })).toBe(false);
    expect(tables.failing['toy_poll']?.({ outcome: 'veto' })).toBe(true);
    expect(tables.failing['toy_poll']?.({ outcome: 'yes' })).toBe(false);
  });

  it('refuses a kind listed twice', () => {
    expect(() => kindTables([...Object.values(KINDS), chime, chime])).toThrow(
      "node kind 'toy_chime' is listed twice",
    );
  });
});

describe('the tables of node types the code reads', () => {
  it('are the ones kindTables derives from KINDS', () => {
    const derived = kindTables(Object.values(KINDS));
    const { failing: _closures, ...data } = derived;
    const { failing: _same, ...current } = KIND_TABLES;
    expect(current).toEqual(data);
    expect(Object.keys(KIND_TABLES.failing)).toEqual(Object.keys(derived.failing));
    expect(NODE_TYPES).toEqual(Object.keys(KINDS));
  });

  it('are KIND_TABLES itself, not copies kept by hand', () => {
    expect(NODE_TYPES).toBe(KIND_TABLES.nodeTypes);
    expect(FIXED_OUTCOMES).toBe(KIND_TABLES.fixedOutcomes);
    expect(CONDITIONAL_NODE_TYPES).toBe(KIND_TABLES.conditionalTypes);
    expect(WORK_NODE_TYPES).toBe(KIND_TABLES.workTypes);
    expect(NODE_SCHEMAS).toBe(KIND_TABLES.schemas);
    expect(NODE_CHECKS).toBe(KIND_TABLES.checks);
    expect(DECIDERS).toBe(KIND_TABLES.deciders);
    expect(USER_OUTCOMES).toBe(KIND_TABLES.userOutcomes);
    expect(FAILING_OUTCOMES).toBe(KIND_TABLES.failingOutcomes);
  });

  it('give the flow machine one actor per work kind', () => {
    const actors = compileFlow(sampleFlows.minimal()).implementations.actors;
    expect(Object.keys(actors)).toEqual(WORK_NODE_TYPES);
  });
});
