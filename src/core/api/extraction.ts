/**
 * `extractionSchema` (compat.md §2.3): the fields the service reads from a session's transcript
 * into `report.extractedData`, keyed by `fieldName` and typed by `type`.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { ErrorDetail } from './errors';
import { API_LIMITS } from './limits';

export const EXTRACTION_TYPES = ['string', 'number', 'boolean', 'date'] as const;
export type ExtractionType = (typeof EXTRACTION_TYPES)[number];

export const ExtractionFieldSchema = Type.Object(
  {
    fieldName: Type.String({
      minLength: 1,
      maxLength: API_LIMITS.maxMapKeyLength,
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'The key of the value in report.extractedData (letters, digits, _).',
    }),
    type: Type.Union(
      EXTRACTION_TYPES.map((t) => Type.Literal(t)),
      {
        description: 'The JSON type of the value; a date comes back as ISO 8601 text (YYYY-MM-DD).',
      },
    ),
    description: Type.String({
      minLength: 1,
      maxLength: API_LIMITS.maxPromptLength,
      description: 'What to look for in what the user said.',
    }),
    enum: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
        description: 'string fields only: the allowed values; a loose reply maps onto one of them.',
      }),
    ),
  },
  { additionalProperties: false, title: 'Extraction field' },
);
export type ExtractionField = Static<typeof ExtractionFieldSchema>;

export const ExtractionSchemaSchema = Type.Array(ExtractionFieldSchema, {
  minItems: 1,
  maxItems: API_LIMITS.maxMapKeys,
  $id: 'ExtractionSchema',
  description:
    'Fields read from what the user said during the session into report.extractedData ' +
    '(null when not found). Unique fieldNames.',
});

/**
 * The problems of a schema-valid `extractionSchema` that its schema cannot state: a `fieldName`
 * used twice, an `enum` on a type other than `string`.
 *
 * @example
 * extractionProblems([{ fieldName: 'a', type: 'number', description: 'x', enum: ['1'] }]);
 * // [{ path: 'extractionSchema[0].enum', message: 'enum applies to string fields only …' }]
 */
export function extractionProblems(fields: readonly ExtractionField[]): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  fields.forEach((f, i) => {
    const first = seen.get(f.fieldName);
    if (first !== undefined)
      problems.push({
        path: `extractionSchema[${i}].fieldName`,
        message: `fieldName '${f.fieldName}' is used twice (also extractionSchema[${first}])`,
      });
    else seen.set(f.fieldName, i);
    if (f.enum && f.type !== 'string')
      problems.push({
        path: `extractionSchema[${i}].enum`,
        message: `enum applies to string fields only (this one is ${f.type})`,
      });
  });
  return problems;
}
