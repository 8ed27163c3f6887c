import { Type } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { invalid, validationDetails } from './errors';
import {
  checkedAs,
  jsonSerializerCompiler,
  typeboxCheck,
  typeboxValidatorCompiler,
} from './validation';

const Body = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    kind: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('b')])),
    tags: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
const def = (httpPart: string, schema: unknown = Body) => ({
  schema,
  httpPart,
  method: 'POST',
  url: '/x',
});
type Outcome = boolean | { value?: unknown; error?: Error | FastifySchemaValidationError[] };
const run = (validator: ReturnType<typeof typeboxValidatorCompiler>, data: unknown) =>
  validator(data) as Outcome;
/** What the API answers for a failed check of the body. */
const answered = (outcome: Outcome) => {
  if (typeof outcome === 'boolean' || !Array.isArray(outcome.error)) return outcome;
  return invalid(validationDetails(outcome.error, 'body')).body();
};

describe('the routes’ schema checks', () => {
  it('report every problem, one per path, with the API’s paths and messages', () => {
    const check = typeboxValidatorCompiler(def('body'));
    const r = answered(run(check, { name: '', kind: 'c', tags: ['x', 2], extra: true }));
    expect(r).toEqual({
      error: {
        type: 'validation_error',
        message:
          'Invalid request parameters: extra: unknown parameter "extra" (and 3 more problems)',
        details: [
          { path: 'extra', message: 'unknown parameter "extra"' },
          { path: 'name', message: 'expected string length greater or equal to 1' },
          // A union fails with one error per member: the first is told.
          { path: 'kind', message: 'expected union value' },
          { path: 'tags[1]', message: 'expected string' },
        ],
      },
    });
    expect(answered(run(check, [1]))).toMatchObject({
      error: { details: [{ path: '(body)', message: 'expected object' }] },
    });
  });

  it('stop at 100 problems', () => {
    const many = Type.Object({}, { additionalProperties: false });
    const body = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    const r = run(typeboxCheck(many, { omittedIsEmpty: false }), body);
    expect(typeof r === 'object' && Array.isArray(r.error) && r.error.length).toBe(100);
  });

  it('read an omitted body as {} and hand that to the handler', () => {
    const optional = Type.Object({ text: Type.Optional(Type.String()) });
    expect(run(typeboxValidatorCompiler(def('body', optional)), null)).toEqual({ value: {} });
    expect(run(typeboxValidatorCompiler(def('body', optional)), { text: 'x' })).toBe(true);
    expect(answered(run(typeboxValidatorCompiler(def('body')), null))).toMatchObject({
      error: { details: [{ path: 'name', message: 'expected required property' }] },
    });
  });

  it('leave headers to the app’s hooks, and a part a route checks itself to its handler', () => {
    expect(run(typeboxValidatorCompiler(def('headers')), { name: 5 })).toBe(true);
    const own = checkedAs({ querystring: null, body: Type.Object({ n: Type.Integer() }) });
    expect(run(own(def('querystring')), { anything: 'goes' })).toBe(true);
    expect(run(own(def('params', Type.Object({ id: Type.String() }))), { id: 1 })).toMatchObject({
      error: [{ instancePath: '/id', message: 'expected string' }],
    });
    // The handler gets the body as sent: an omitted one is not made {}.
    expect(run(own(def('body')), null)).toMatchObject({
      error: [{ instancePath: '', message: 'expected object' }],
    });
    expect(run(own(def('body')), { n: 1 })).toBe(true);
  });

  it('write answers as they are, whatever their documented schema names', () => {
    const write = jsonSerializerCompiler({ schema: Body, method: 'GET', url: '/x' });
    const legacy = { clientSecret: { secret: 'cs_x', createdAt: 1 }, z: 1, a: [2] };
    expect(write(legacy)).toBe(JSON.stringify(legacy));
  });
});
