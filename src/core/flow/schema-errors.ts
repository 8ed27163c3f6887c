import type { TSchema } from '@sinclair/typebox';
import type { ValueError } from '@sinclair/typebox/errors';
import { ValueErrorType } from '@sinclair/typebox/errors';
import type { NodeIssue } from './kinds/common';
import type { NodeType } from './kinds';
import { isFixedOutcomeType } from './kinds';
import { joinKey, shown } from './problems';
import { unsupportedFieldReason } from './unsupported';

/** Fields with their own checks in validateFlow, so schema errors on them are left out. */
const OWN_CHECKS = new Set(['/id', '/type']);

/** How messages name what is checked. */
export interface IssueContext {
  /** The node type, for outcome-key messages. */
  type?: NodeType;
  /** Names the checked value in messages, e.g. "a face_scan node". */
  subject: string;
  /** Prefix of field labels in messages; without it a label is the field relative to the value. */
  labelBase?: string;
}

/**
 * Turns TypeBox errors for one value into one readable issue per broken field: the first error
 * at a path wins and nothing is said inside a field already reported.
 * @example schemaIssues(checker.Errors(node), node, { type: 'face_scan', subject: 'a face_scan node' })
 * // [{ field: '.outcomes.foo', message: "unknown outcome 'foo' …" }]
 */
export function schemaIssues(
  errors: Iterable<ValueError>,
  node: unknown,
  context: IssueContext,
): NodeIssue[] {
  const issues: NodeIssue[] = [];
  const reported: string[] = [];
  for (const error of errors) {
    if (OWN_CHECKS.has(error.path)) continue;
    if (reported.some((p) => error.path === p || error.path.startsWith(`${p}/`))) continue;
    reported.push(error.path);
    const segments = pointerSegments(error.path);
    const field = fieldOf(node, segments);
    const label = context.labelBase === undefined ? field.slice(1) : context.labelBase + field;
    issues.push({ field, message: messageFor(error, label, segments, context) });
  }
  return issues;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `.outcomes[0].targetNodeId`: array positions in brackets, keys as written in JavaScript. */
function fieldOf(node: unknown, segments: string[]): string {
  let field = '';
  let value: unknown = node;
  for (const segment of segments) {
    field = Array.isArray(value) ? `${field}[${segment}]` : joinKey(field, segment);
    value =
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[segment]
        : undefined;
  }
  return field;
}

const KIND_WORDS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.String]: 'a string',
  [ValueErrorType.Number]: 'a number',
  [ValueErrorType.Integer]: 'a whole number',
  [ValueErrorType.Boolean]: 'true or false',
  [ValueErrorType.Object]: 'an object',
  [ValueErrorType.Array]: 'an array',
};

function messageFor(
  error: ValueError,
  label: string,
  segments: string[],
  context: IssueContext,
): string {
  const schema = error.schema as TSchema & Record<string, unknown>;
  const kind = KIND_WORDS[error.type];
  if (kind) return `${label} must be ${kind}`;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${label} is required`;
    case ValueErrorType.ObjectAdditionalProperties:
      return unknownKeyMessage(segments, schema, context);
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
      return `${label} must be ${rangeWords(schema)} (got ${shown(error.value)})`;
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1
        ? `${label} must not be empty`
        : `${label} must be at least ${String(schema.minLength)} characters`;
    case ValueErrorType.StringMaxLength:
      return `${label} must be at most ${String(schema.maxLength)} characters (it has ${String((error.value as string).length)})`;
    case ValueErrorType.StringPattern:
      return typeof schema.errorMessage === 'string'
        ? `${label} ${schema.errorMessage} (got ${shown(error.value)})`
        : `${label} does not have the expected form (got ${shown(error.value)})`;
    case ValueErrorType.Union:
      return `${label} must be ${unionWords(schema)} (got ${shown(error.value)})`;
    case ValueErrorType.ArrayMinItems:
      return `${label} must have at least ${String(schema.minItems)} item${schema.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.ArrayMaxItems:
      return `${label} may have at most ${String(schema.maxItems)} items (it has ${String((error.value as unknown[]).length)})`;
    case ValueErrorType.ArrayUniqueItems:
      return `${label} must not list an item twice`;
    default:
      return `${label}: ${error.message}`;
  }
}

function rangeWords(schema: Record<string, unknown>): string {
  const { minimum, maximum } = schema;
  if (typeof minimum === 'number' && typeof maximum === 'number')
    return `from ${minimum} to ${maximum}`;
  if (typeof minimum === 'number') return `at least ${minimum}`;
  return `at most ${String(maximum)}`;
}

function unionWords(schema: Record<string, unknown>): string {
  const branches = (schema.anyOf ?? []) as Record<string, unknown>[];
  if (branches.every((b) => 'const' in b))
    return `one of ${branches.map((b) => String(b.const)).join(', ')}`;
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
  };
  return branches.map((b) => words[String(b.type)] ?? String(b.type)).join(' or ');
}

function unknownKeyMessage(
  segments: string[],
  schema: Record<string, unknown>,
  { type, subject }: IssueContext,
): string {
  const key = segments[segments.length - 1] ?? '';
  const known = Object.keys((schema.properties ?? {}) as object);
  const parent = segments.slice(0, -1);
  if (parent.length === 1 && parent[0] === 'outcomes' && type && isFixedOutcomeType(type))
    return `unknown outcome '${key}' for ${subject}; its outcomes are ${known.join(', ')}`;
  const unsupported = parent.length === 0 ? unsupportedFieldReason(type, key) : null;
  if (unsupported) return `'${key}' is not supported: ${unsupported}`;
  if (parent.length === 0)
    return `unknown field '${key}' for ${subject}; its fields are ${known.join(', ')}`;
  return `unknown field '${key}'; the fields here are ${known.join(', ')}`;
}
