/**
 * The value types field_condition and external_call share (compat.md §3.3): a reference to a
 * stored session value, and an operand that is either a literal or such a reference.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';

/** Where a reference reads: the extracted data (extractionSchema) or the provided data. */
export const VALUE_SOURCES = ['extractedData', 'providedData'] as const;
export type ValueSource = (typeof VALUE_SOURCES)[number];

const sourceSchema = Type.Union(
  VALUE_SOURCES.map((s) => Type.Literal(s)),
  {
    description:
      'providedData: a key of the session providedData (set at creation or merged in by an ' +
      'earlier external_call); extractedData: a fieldName of the extractionSchema.',
  },
);
const fieldSchema = Type.String({
  minLength: 1,
  maxLength: FLOW_LIMITS.maxDataKeyLength,
  description: 'A key of that source (a plain key, not a path).',
});

/** A reference to a stored session value. */
export const FieldRefSchema = Type.Object(
  { source: sourceSchema, field: fieldSchema },
  { additionalProperties: false, title: 'Field reference' },
);
export type FieldRef = Static<typeof FieldRefSchema>;

/** A literal or a reference. There is no null literal. */
export const ValueOperandSchema = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('literal'),
        value: Type.Union([
          Type.String({ maxLength: FLOW_LIMITS.maxPromptLength }),
          Type.Number(),
          Type.Boolean(),
        ]),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { type: Type.Literal('ref'), source: sourceSchema, field: fieldSchema },
      { additionalProperties: false },
    ),
  ],
  { title: 'Value operand' },
);
export type ValueOperand = Static<typeof ValueOperandSchema>;
