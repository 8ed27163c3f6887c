import type { TObject } from '@sinclair/typebox';
import type { LooseNode, NodeIssue } from './common';
import type { AnyKind, Decider, StepSeen } from './kind';

/** The tables of node types that code reads, each derived from the kinds. */
export interface KindTables {
  /** Every node type, in the order of the kinds. */
  nodeTypes: string[];
  /** The outcome keys of each fixed-outcome type, in order. */
  fixedOutcomes: Record<string, string[]>;
  /** Types whose `outcomes` is an ordered array of conditional outcomes. */
  conditionalTypes: string[];
  /** Types whose outcomes are named after their own fields (computed-routes.ts). */
  computedTypes: string[];
  /** Types whose work runs as an invoked actor of the flow machine (all but entry and exit). */
  workTypes: string[];
  schemas: Record<string, TObject>;
  resolvers: Record<string, (node: never) => unknown>;
  /** Checks beyond the schema, for the types that have some. */
  checks: Record<string, (node: LooseNode) => NodeIssue[]>;
  /** Who decides each fixed outcome, by type. */
  deciders: Record<string, Record<string, Decider>>;
  /** Fixed outcomes the page may report for the user outside test mode, for types that have any. */
  userOutcomes: Record<string, string[]>;
  /** Every fixed outcome key that fails or leaves undecided the check of its type. */
  failingOutcomes: Set<string>;
  /** Whether a step of each type counts against `isVerified`. */
  failing: Record<string, (step: StepSeen) => boolean>;
}

/**
 * Derives every table of node types from a list of kinds; a kind listed twice is refused.
 * `kinds/index.ts` calls it once with `KINDS`; the recipe test calls it with a toy kind added.
 * @example kindTables([start, end]).nodeTypes // ['start', 'end']
 */
export function kindTables(kinds: readonly AnyKind[]): KindTables {
  const t: KindTables = {
    nodeTypes: [],
    fixedOutcomes: {},
    conditionalTypes: [],
    computedTypes: [],
    workTypes: [],
    schemas: {},
    resolvers: {},
    checks: {},
    deciders: {},
    userOutcomes: {},
    failingOutcomes: new Set(),
    failing: {},
  };
  for (const kind of kinds) {
    const type = kind.type;
    if (t.nodeTypes.includes(type)) throw new Error(`node kind '${type}' is listed twice`);
    t.nodeTypes.push(type);
    t.schemas[type] = kind.schema;
    t.resolvers[type] = kind.defaults;
    if (kind.check) t.checks[type] = kind.check;
    const routes = kind.routes;
    if (routes.routing === 'entry' || routes.routing === 'exit') {
      t.failing[type] = () => false;
      continue;
    }
    t.workTypes.push(type);
    if (routes.routing === 'computed') {
      t.computedTypes.push(type);
      t.failing[type] = () => false;
      continue;
    }
    if (routes.routing === 'conditional') {
      t.conditionalTypes.push(type);
      t.failing[type] = (step) => routes.failing(step);
      continue;
    }
    const rules = Object.entries(routes.outcomes);
    t.fixedOutcomes[type] = rules.map(([key]) => key);
    t.deciders[type] = Object.fromEntries(rules.map(([key, rule]) => [key, rule.decidedBy]));
    const byUser = rules.filter(([, rule]) => rule.decidedBy === 'user').map(([key]) => key);
    if (byUser.length > 0) t.userOutcomes[type] = byUser;
    const failing = new Set(rules.filter(([, rule]) => rule.failing).map(([key]) => key));
    for (const key of failing) t.failingOutcomes.add(key);
    t.failing[type] = (step) => failing.has(step.outcome);
  }
  return t;
}
