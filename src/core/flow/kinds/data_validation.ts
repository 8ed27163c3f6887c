import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { LooseNode, NodeIssue } from './common';
import {
  conditionalOutcomes,
  duplicateOutcomeIds,
  nodeSchema,
  outcomeItems,
  recordOf,
} from './common';
import type { Kind } from './kind';

export const VALIDATION_ACTIONS = [
  'exists',
  'equals',
  'notEquals',
  'contains',
  'matches',
  'minAge',
  'maxAge',
  'notExpired',
  'sameAs',
  'isEmail',
  'isPhone',
  'isNumber',
  'isDate',
] as const;
export type ValidationAction = (typeof VALIDATION_ACTIONS)[number];

/** The data a `field` path may read. */
export const FIELD_ROOTS = ['providedData', 'extractedData', 'metadata'] as const;

/** The words a data_validation condition may hold; empty matches always. */
export const CHECK_RESULTS = ['passed', 'failed'] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

const FIELD_PATTERN = `^(${FIELD_ROOTS.join('|')})\\..+$`;
const fieldRegex = new RegExp(FIELD_PATTERN);

/** Routes on a deterministic check over the session's data; no AI is asked. */
export const DataValidationNodeSchema = nodeSchema(
  'data_validation',
  {
    validation: Type.Object(
      {
        field: Type.String({
          pattern: FIELD_PATTERN,
          maxLength: FLOW_LIMITS.maxIdLength,
          errorMessage: 'must be a path starting with providedData., extractedData. or metadata.',
          description:
            'The value checked: providedData.<key>, extractedData.<key> or metadata.<key>.',
        }),
        action: Type.Union(
          VALIDATION_ACTIONS.map((a) => Type.Literal(a)),
          {
            description:
              'The check made on the field. isEmail: an email address; isPhone: a phone number in ' +
              'international form; isNumber: a decimal number; isDate: a date (YYYY-MM-DD, ' +
              'YYYYMMDD, DD.MM.YYYY or DD/MM/YYYY).',
          },
        ),
        value: Type.Optional(
          Type.Union([Type.String({ maxLength: FLOW_LIMITS.maxPromptLength }), Type.Number()], {
            description:
              'equals/notEquals/contains: the text; matches: a regular expression in RE2 syntax ' +
              '(no lookaround or backreferences; (?i) for any case), searched for in the value; ' +
              'minAge/maxAge: years; sameAs: the other field path. Not used by exists, notExpired, ' +
              'isEmail, isPhone, isNumber and isDate.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    outcomes: conditionalOutcomes(
      'The check yields passed or failed; the first outcome whose condition is that word ' +
        '(or empty) wins.',
    ),
  },
  'Routes on a deterministic check over collected data.',
);
export type DataValidationNode = Static<typeof DataValidationNodeSchema>;
export type ResolvedDataValidationNode = DataValidationNode & {
  outcomes: { id: string; condition: string; targetNodeId?: string }[];
};

/**
 * The node with every condition filled in (empty by default).
 * @example dataValidationWithDefaults(node).outcomes[0].condition // '' when left out
 */
export function dataValidationWithDefaults(node: DataValidationNode): ResolvedDataValidationNode {
  return { ...node, outcomes: node.outcomes.map((o) => ({ ...o, condition: o.condition ?? '' })) };
}

const VALUE_RULES: Record<ValidationAction, 'none' | 'text' | 'regex' | 'age' | 'field'> = {
  exists: 'none',
  notExpired: 'none',
  equals: 'text',
  notEquals: 'text',
  contains: 'text',
  matches: 'regex',
  minAge: 'age',
  maxAge: 'age',
  sameAs: 'field',
  isEmail: 'none',
  isPhone: 'none',
  isNumber: 'none',
  isDate: 'none',
};

/**
 * Checks the schema cannot express: the `value` each action needs, conditions limited to
 * passed/failed/empty, unique outcome ids.
 * @example checkDataValidation({ …, validation: { field: 'providedData.dob', action: 'minAge' } }) // value is required
 */
export function checkDataValidation(node: LooseNode): NodeIssue[] {
  const issues = [...checkValue(recordOf(node.validation)), ...duplicateOutcomeIds(node.outcomes)];
  for (const [index, outcome] of outcomeItems(node.outcomes)) {
    const condition = outcome.condition;
    if (typeof condition === 'string' && condition !== '' && !isCheckResult(condition))
      issues.push({
        field: `.outcomes[${index}].condition`,
        message: `condition must be 'passed', 'failed' or empty (got '${condition}'): a data_validation check yields passed or failed`,
      });
  }
  return issues;
}

function isCheckResult(value: string): value is CheckResult {
  return (CHECK_RESULTS as readonly string[]).includes(value);
}

function checkValue({ action, value }: LooseNode): NodeIssue[] {
  if (typeof action !== 'string' || !Object.hasOwn(VALUE_RULES, action)) return [];
  const rule = VALUE_RULES[action as ValidationAction];
  const at = (message: string): NodeIssue[] => [{ field: '.validation.value', message }];
  if (rule === 'none')
    return value === undefined ? [] : at(`value is not used by the action ${action}; remove it`);
  if (value === undefined) return at(`value is required for the action ${action}`);
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  if (rule === 'regex') {
    // Whether RE2 can run it is a creation check (creation-checks.ts): a stored flow still runs.
    if (typeof value !== 'string') return at('value must be a regular expression (a string)');
  }
  if (rule === 'age') {
    const years = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
    const { min, max } = FLOW_LIMITS.age;
    if (!Number.isInteger(years) || years < min || years > max)
      return at(`value must be a whole number of years from ${min} to ${max} (got ${value})`);
  }
  if (rule === 'field' && (typeof value !== 'string' || !fieldRegex.test(value)))
    return at(
      `value must name the other field, as ${FIELD_ROOTS.map((r) => `${r}.<key>`).join(', ')} (got ${value})`,
    );
  return [];
}

/**
 * What the check yielded when the outcome at `index` was chosen, known from the order of the
 * conditions: `undefined` when that outcome is taken whatever the check says.
 * @example checkResultOf([{ condition: 'passed' }, { condition: '' }], 1) // 'failed'
 */
export function checkResultOf(
  outcomes: readonly { condition?: string }[],
  index: number,
): CheckResult | undefined {
  const condition = outcomes[index]?.condition ?? '';
  if (condition === 'passed' || condition === 'failed') return condition;
  const earlier = new Set(outcomes.slice(0, index).map((o) => o.condition ?? ''));
  if (earlier.has('passed') && !earlier.has('failed')) return 'failed';
  if (earlier.has('failed') && !earlier.has('passed')) return 'passed';
  return undefined;
}

/** What a data_validation node's report holds: the check made and what it yielded. */
export interface DataValidationReport {
  check: CheckResult;
  field: string;
  action: ValidationAction;
}

/**
 * The data_validation kind. The server runs the check as soon as the session reaches the node;
 * a step counts against `isVerified` when its check yielded `failed` (recorded as `result`).
 */
export const dataValidation = {
  type: 'data_validation',
  schema: DataValidationNodeSchema,
  defaults: dataValidationWithDefaults,
  check: checkDataValidation,
  routes: {
    routing: 'conditional',
    decidedBy: 'server',
    failing: (step) => step.result === 'failed',
  },
  types: {} as { report: DataValidationReport },
} as const satisfies Kind<
  'data_validation',
  typeof DataValidationNodeSchema,
  ResolvedDataValidationNode,
  DataValidationReport
>;
