import { Type } from '@sinclair/typebox';
import type { TLiteral, TObject, TOptional, TProperties, TString } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';

/**
 * A node id. Its own rules (non-empty, length, no leading `#`, unique) are checked by
 * `validateFlow` with dedicated messages; the schema states them for OpenAPI.
 */
export const NodeIdSchema = Type.String({
  minLength: 1,
  maxLength: FLOW_LIMITS.maxIdLength,
  pattern: '^(?!#)',
  description: 'Unique within the flow, chosen by the integrator. May not start with "#".',
});

/** The id of the node an outcome leads to. */
export const TargetSchema = Type.String({
  minLength: 1,
  description: 'The id of the node this outcome leads to.',
});

/** What the avatar says; `Say:` at the start asks for these exact words. */
export const PromptSchema = (description: string) =>
  Type.String({ maxLength: FLOW_LIMITS.maxPromptLength, description });

/** An integer option with inclusive bounds and a default applied by `nodeDefaults`. */
export const BoundedInteger = (
  bounds: { min: number; max: number; default: number },
  description: string,
) =>
  Type.Integer({
    minimum: bounds.min,
    maximum: bounds.max,
    default: bounds.default,
    description,
  });

/**
 * How many attempts a camera node (liveness_detection, face_scan) gives the user: a retryable
 * failure (a challenge not met, too dark, no face…) offers another until they run out; a pass or a
 * presentation attack decides at once (docs/liveness.md, "Attempts").
 */
export const MaxAttemptsSchema = BoundedInteger(
  FLOW_LIMITS.cameraAttempts,
  'Attempts before the outcome stands: a retryable failure (a challenge not met, too dark, no ' +
    'face…) offers another try until they run out; a pass or a presentation attack ends the node.',
);

/** A similarity threshold in [0, 1]; left out, the server's measured default applies. */
export const SimilarityThresholdSchema = Type.Number({
  minimum: 0,
  maximum: 1,
  description:
    'Similarity from 0 to 1 at or above which two faces count as the same person. ' +
    'Left out, the threshold measured on the project test set applies.',
});

type FixedOutcomesSchema<K extends string> = TObject<{ [P in K]: TOptional<TString> }>;

/**
 * The `outcomes` object of a fixed-outcome node: each key optional, no other key allowed.
 * @example fixedOutcomes(['permissionsGranted', 'permissionsDenied'])
 */
export function fixedOutcomes<K extends string>(keys: readonly K[]): FixedOutcomesSchema<K> {
  const properties = Object.fromEntries(keys.map((key) => [key, Type.Optional(TargetSchema)]));
  return Type.Object(properties, {
    additionalProperties: false,
    description:
      'Maps outcome keys to target node ids. A key left out ends the session incomplete ' +
      'when the node selects it.',
  }) as unknown as FixedOutcomesSchema<K>;
}

/** One item of a conversation or data_validation `outcomes` array. */
export const ConditionalOutcomeSchema = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: FLOW_LIMITS.maxIdLength,
      description: 'Unique within the node; recorded as the outcome in the node report.',
    }),
    condition: Type.Optional(
      Type.String({
        maxLength: FLOW_LIMITS.maxPromptLength,
        default: '',
        description: 'Evaluated in order; the first that matches wins. Empty matches always.',
      }),
    ),
    targetNodeId: Type.Optional({
      ...TargetSchema,
      description:
        'The id of the node this outcome leads to; left out, the session ends incomplete when the outcome is chosen.',
    }),
  },
  { additionalProperties: false },
);

/** The ordered `outcomes` array of a conditional node. */
export const conditionalOutcomes = (description: string) =>
  Type.Array(ConditionalOutcomeSchema, {
    minItems: 1,
    maxItems: FLOW_LIMITS.maxConditionalOutcomes,
    description,
  });

/**
 * The object schema of one node type: `id`, the `type` literal and the type's own fields. Unknown
 * fields are refused so a misspelt option does not silently fall back to its default.
 * @example nodeSchema('end', {}, 'Exit point.')
 */
export function nodeSchema<T extends string, P extends TProperties>(
  type: T,
  properties: P,
  description: string,
): TObject<{ id: typeof NodeIdSchema; type: TLiteral<T> } & P> {
  return Type.Object(
    { id: NodeIdSchema, type: Type.Literal(type), ...properties },
    { additionalProperties: false, description, title: `${type} node` },
  );
}

/** A problem one node has beyond its schema; `field` is relative to the node, e.g. `.otpLength`. */
export interface NodeIssue {
  field: string;
  message: string;
}

/**
 * A node as received, before its schema is known to hold: checks beyond the schema run on it too,
 * so they read every field defensively and report only what they can tell.
 */
export type LooseNode = Readonly<Record<string, unknown>>;

/**
 * A field read as an object, or an empty one when it is anything else.
 * @example recordOf({ a: 1 }) // { a: 1 }
 */
export function recordOf(value: unknown): LooseNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as LooseNode)
    : {};
}

/**
 * The items of a conditional `outcomes` array that are objects (others are schema problems).
 * @example outcomeItems([{ id: 'a' }, 3]) // [[0, { id: 'a' }]]
 */
export function outcomeItems(value: unknown): [index: number, item: LooseNode][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, index) =>
    item !== null && typeof item === 'object'
      ? [[index, item as LooseNode] as [number, LooseNode]]
      : [],
  );
}

/**
 * The problem of a conditional `outcomes` array that the schema cannot state: outcome ids must be
 * unique within the node.
 * @example duplicateOutcomeIds([{ id: 'a' }, { id: 'a' }]) // one issue at .outcomes[1].id
 */
export function duplicateOutcomeIds(outcomes: unknown): NodeIssue[] {
  const seen = new Map<string, number>();
  const issues: NodeIssue[] = [];
  for (const [index, outcome] of outcomeItems(outcomes)) {
    if (typeof outcome.id !== 'string') continue;
    const first = seen.get(outcome.id);
    if (first === undefined) seen.set(outcome.id, index);
    else
      issues.push({
        field: `.outcomes[${index}].id`,
        message: `outcome id '${outcome.id}' is used twice in this node (also outcomes[${first}])`,
      });
  }
  return issues;
}
