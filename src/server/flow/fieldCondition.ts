/**
 * The rules of a `field_condition` node (compat.md §3.6): deterministic, tried in order, the first
 * that holds decides; no rule: the default. Where the SDK leaves a point open, the choice is
 * docs/sdk-inputs.md's ("field_condition").
 */
import type { FieldConditionRule } from '../../core/flow/kinds/field_condition';
import type { FieldRef, ValueOperand } from '../../core/flow/kinds/operands';
import { parseDate } from './dataValidation';

/** The session data a rule reads. */
export interface RuleData {
  providedData: Readonly<Record<string, unknown>>;
  extractedData: Readonly<Record<string, unknown>>;
}

type Scalar = string | number | boolean;

/** A stored value as a rule sees it: a scalar, or undefined for missing, null, objects, arrays. */
function scalar(v: unknown): Scalar | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

/**
 * The value a reference reads (undefined when the key is missing or holds null).
 * @example readRef({ source: 'providedData', field: 'score' }, { providedData: { score: 7 }, extractedData: {} }) // 7
 */
export function readRef(ref: FieldRef, data: RuleData): Scalar | undefined {
  const map = data[ref.source];
  return Object.hasOwn(map, ref.field) ? scalar(map[ref.field]) : undefined;
}

/**
 * The value of an operand: a literal as given, a reference as read.
 * @example operandValue({ type: 'literal', value: 50 }, data) // 50
 */
export function operandValue(o: ValueOperand, data: RuleData): Scalar | undefined {
  return o.type === 'literal' ? o.value : readRef(o, data);
}

const text = (v: Scalar) => String(v).trim();

/** A number from a number or decimal text, else null. */
function numberOf(v: Scalar): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return null;
  const t = v.trim();
  return /^[-+]?(\d+(\.\d+)?|\.\d+)$/.test(t) ? Number(t) : null;
}

/** Orders two values: as numbers when both are, else as dates when both are, else not at all. */
function order(a: Scalar, b: Scalar): number | null {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x !== null && y !== null) return x - y;
  const dx = typeof a === 'string' ? parseDate(a) : null;
  const dy = typeof b === 'string' ? parseDate(b) : null;
  return dx !== null && dy !== null ? dx - dy : null;
}

/**
 * Whether one rule holds. `equals` compares trimmed text exactly (case counts); `notEquals` is its
 * negation, so it holds when either side is missing; `gt`/`lt`/`gte`/`lte` compare numbers, else
 * dates, and never hold otherwise or with a side missing; `exists` holds for a value that is not
 * empty text (a number or a boolean exists).
 *
 * @example
 * ruleHolds({ left: { source: 'providedData', field: 'n' }, operator: 'equals', right: { type: 'literal', value: ' 1234 ' }, outcome: 'x' },
 *   { providedData: { n: 1234 }, extractedData: {} }); // true
 */
export function ruleHolds(rule: FieldConditionRule, data: RuleData): boolean {
  const left = readRef(rule.left, data);
  const present = left !== undefined && text(left) !== '';
  if (rule.operator === 'exists') return present;
  if (rule.operator === 'notExists') return !present;
  const right = rule.right ? operandValue(rule.right, data) : undefined;
  const same = left !== undefined && right !== undefined && text(left) === text(right);
  if (rule.operator === 'equals') return same;
  if (rule.operator === 'notEquals') return !same;
  if (left === undefined || right === undefined) return false;
  const d = order(left, right);
  if (d === null) return false;
  switch (rule.operator) {
    case 'gt':
      return d > 0;
    case 'lt':
      return d < 0;
    case 'gte':
      return d >= 0;
    case 'lte':
      return d <= 0;
  }
}

/**
 * The index of the first rule that holds, or null (the default).
 * @example firstRuleHolding(node.rules, data) // 0
 */
export function firstRuleHolding(
  rules: readonly FieldConditionRule[],
  data: RuleData,
): number | null {
  const i = rules.findIndex((rule) => ruleHolds(rule, data));
  return i < 0 ? null : i;
}
