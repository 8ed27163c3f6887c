import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { LooseNode, NodeIssue } from './common';
import { TargetSchema, nodeSchema, outcomeItems } from './common';
import type { Kind } from './kind';
import { asSent } from './kind';
import { FieldRefSchema, ValueOperandSchema } from './operands';

export const CONDITION_OPERATORS = [
  'equals',
  'notEquals',
  'gt',
  'lt',
  'gte',
  'lte',
  'exists',
  'notExists',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** The operators that read `left` alone. */
export const UNARY_OPERATORS: ReadonlySet<string> = new Set(['exists', 'notExists']);

const RuleSchema = Type.Object(
  {
    left: FieldRefSchema,
    operator: Type.Union(
      CONDITION_OPERATORS.map((o) => Type.Literal(o)),
      {
        description:
          'equals/notEquals compare both sides as trimmed text (1234, "1234" and " 1234 " are ' +
          'equal); gt/lt/gte/lte compare numbers, else dates; exists holds for a value that is ' +
          'not empty text.',
      },
    ),
    right: Type.Optional(ValueOperandSchema),
    outcome: TargetSchema,
  },
  { additionalProperties: false, title: 'Rule' },
);

/** Routes on rules over provided and extracted data: the first rule that holds wins. */
export const FieldConditionNodeSchema = nodeSchema(
  'field_condition',
  {
    rules: Type.Array(RuleSchema, {
      minItems: 1,
      maxItems: FLOW_LIMITS.maxConditionalOutcomes,
      description: 'Tried in order; the first that holds decides the next node.',
    }),
    default: { ...TargetSchema, description: 'The next node when no rule holds.' },
  },
  'Routes on rules over provided and extracted data, first match wins, else the default. ' +
    'Deterministic: no AI is asked.',
);
export type FieldConditionNode = Static<typeof FieldConditionNodeSchema>;
export type FieldConditionRule = FieldConditionNode['rules'][number];

/**
 * Checks the schema cannot express: `right` is required by the binary operators and not used by
 * exists and notExists.
 * @example checkFieldCondition({ rules: [{ operator: 'gt', left: { … }, outcome: 'x' }] }) // right is required
 */
export function checkFieldCondition(node: LooseNode): NodeIssue[] {
  const issues: NodeIssue[] = [];
  for (const [i, rule] of outcomeItems(node.rules)) {
    const op = rule.operator;
    if (typeof op !== 'string') continue;
    if (UNARY_OPERATORS.has(op) && rule.right !== undefined)
      issues.push({
        field: `.rules[${i}].right`,
        message: `right is not used by the operator ${op}; remove it`,
      });
    if (!UNARY_OPERATORS.has(op) && rule.right === undefined)
      issues.push({
        field: `.rules[${i}].right`,
        message: `right is required for the operator ${op}`,
      });
  }
  return issues;
}

/** What a field_condition node's report holds: the rule that held (null: the default). */
export interface FieldConditionReport {
  rule: number | null;
}

/**
 * The field_condition kind. The server evaluates the rules as soon as the session reaches the
 * node (src/server/nodes/field_condition.ts); its outcome is `rules[i]` or `default`.
 */
export const fieldCondition = {
  type: 'field_condition',
  schema: FieldConditionNodeSchema,
  defaults: asSent<FieldConditionNode>(),
  check: checkFieldCondition,
  routes: { routing: 'computed' },
  types: {} as { report: FieldConditionReport },
} as const satisfies Kind<
  'field_condition',
  typeof FieldConditionNodeSchema,
  FieldConditionNode,
  FieldConditionReport
>;
