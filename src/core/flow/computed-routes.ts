/**
 * The outcomes of the kinds whose routes are named after their own fields (`routing: 'computed'`),
 * read from a node's shape alone: the compiled machine, the page's light machine (which imports
 * no kind schema) and the graph checks all read them here.
 *
 * - `field_condition`: `rules[0]`, `rules[1]`, … to each rule's `outcome`, then `default`.
 * - `external_call`: `completed` and `failed`, both to its one `outcome`: the node never
 *   branches, and its report says how the call went (docs/sdk-inputs.md).
 */

/** The outcomes of an external_call node; both lead to its `outcome`. */
export const EXTERNAL_CALL_OUTCOMES = ['completed', 'failed'] as const;
export type ExternalCallOutcome = (typeof EXTERNAL_CALL_OUTCOMES)[number];

/** The outcome of a field_condition rule, by its index. */
export const ruleOutcome = (index: number): string => `rules[${index}]`;
/** The outcome of a field_condition node when no rule holds. */
export const DEFAULT_OUTCOME = 'default';

/** The node types `computedRoutes` reads. */
export const COMPUTED_TYPES: ReadonlySet<string> = new Set(['field_condition', 'external_call']);

/**
 * Where each outcome of a computed-routing node leads, read leniently from its shape (a field of
 * the wrong type gives no route); `[]` for any other node.
 *
 * @example
 * computedRoutes({ id: 'c', type: 'field_condition', default: 'no', rules: [{ outcome: 'yes' }] });
 * // [['rules[0]', 'yes'], ['default', 'no']]
 */
export function computedRoutes(node: {
  readonly type?: unknown;
  readonly [field: string]: unknown;
}): [outcome: string, target: string | undefined][] {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  if (node.type === 'external_call') {
    const next = text(node['outcome']);
    return EXTERNAL_CALL_OUTCOMES.map((o) => [o, next]);
  }
  if (node.type !== 'field_condition') return [];
  const rules = Array.isArray(node['rules']) ? (node['rules'] as unknown[]) : [];
  return [
    ...rules.map((rule, i): [string, string | undefined] => [
      ruleOutcome(i),
      text((rule as { outcome?: unknown } | null)?.outcome),
    ]),
    [DEFAULT_OUTCOME, text(node['default'])],
  ];
}
