/**
 * How Fastify checks and writes the bodies the routes declare in their `schema:`. The schemas
 * are TypeBox's, so TypeBox's compiler checks them: its messages and paths are the ones the API
 * has always given (docs/decisions.md, errors), and `errors.ts` turns them into the
 * `validation_error` body.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import type {
  FastifySchema,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  FastifySerializerCompiler,
} from 'fastify';
import { pointerToPath } from './errors';

/**
 * The route generic of a route whose `schema.body` is `S`: its handler gets a body Fastify has
 * checked (an omitted one as `{}`).
 *
 * @example
 * app.post<Body<typeof LangBodySchema>>('/lang', { schema: { body: LangBodySchema } }, handler);
 */
export type Body<S extends TSchema> = { Body: Static<S> };

/** Problems reported for one request part at most. */
const MAX_PROBLEMS = 100;

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;

/** Every request passes: the part is documented by the schema and checked by the handler. */
const passes: Validator = () => true;

/**
 * A compiled TypeBox check that reports every problem, one per path (a union gives several
 * errors for one value; the first says enough), as Fastify validation errors whose
 * `instancePath` is the JSON pointer and whose `message` is the one the API sends.
 *
 * @example
 * const check = typeboxCheck(Type.Object({ a: Type.String() }), { omittedIsEmpty: false });
 * check({ a: 1 }); // { error: [{ instancePath: '/a', message: 'expected string', … }] }
 */
export function typeboxCheck(schema: TSchema, opts: { omittedIsEmpty: boolean }): Validator {
  const compiled = TypeCompiler.Compile(schema);
  return (data: unknown) => {
    // Fastify hands an omitted body over as null. The client routes read it as `{}`, as they
    // always have (`POST /client/exit` has none); the value replaces the request's body.
    const value = data === null && opts.omittedIsEmpty ? {} : data;
    if (compiled.Check(value)) return value === data ? true : { value };
    const seen = new Set<string>();
    const errors: FastifySchemaValidationError[] = [];
    for (const e of compiled.Errors(value)) {
      if (seen.has(e.path)) continue;
      seen.add(e.path);
      const message =
        e.message === 'Unexpected property'
          ? `unknown parameter "${pointerToPath(e.path).split('.').pop()}"`
          : `${e.message.charAt(0).toLowerCase()}${e.message.slice(1)}`;
      errors.push({
        keyword: ValueErrorType[e.type],
        instancePath: e.path,
        schemaPath: '',
        params: {},
        message,
      });
      if (errors.length >= MAX_PROBLEMS) break;
    }
    return { error: errors };
  };
}

/**
 * The app's validator compiler: the body, query and path parameters a route declares are checked
 * by TypeBox.
 *
 * @example
 * app.setValidatorCompiler(typeboxValidatorCompiler);
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  // Headers are read by the app's hooks, which answer their own errors before validation
  // (`version_unknown`, `api_key_invalid`…): a `headers` schema documents them.
  httpPart === 'headers'
    ? passes
    : typeboxCheck(schema as TSchema, { omittedIsEmpty: httpPart === 'body' });

/** Request parts a handler checks itself: another schema for Fastify instead, or none. */
type OwnChecks = Partial<Record<'body' | 'querystring' | 'params', TSchema | null>>;

/**
 * A route's validator compiler when its handler checks some parts itself, with rules a schema
 * cannot state (every problem of a flow at once with its node, the request's version, query
 * values that arrive as strings). The route's `schema:` still documents those parts; each entry
 * here says what Fastify checks instead: another schema (and the handler gets the body as sent,
 * omitted or not), or `null` for nothing. Parts not named are checked as everywhere else.
 *
 * @example
 * const compile = checkedAs({ body: CreateSessionBodyCheckSchema, querystring: null });
 */
export function checkedAs(parts: OwnChecks): FastifySchemaCompiler<unknown> {
  return (def) => {
    const own = parts[def.httpPart as keyof OwnChecks];
    if (own === undefined) return typeboxValidatorCompiler(def);
    return own === null ? passes : typeboxCheck(own, { omittedIsEmpty: false });
  };
}

/**
 * The app's serializer compiler: a route's response schemas document its answers, and the
 * answer is written as it is. fast-json-stringify would drop what a schema does not name and
 * reorder keys, and an answer in an older version (seconds, older statuses, `{ clientSecret }`)
 * does not follow the latest schemas it is documented with.
 *
 * @example
 * app.setSerializerCompiler(jsonSerializerCompiler);
 */
export const jsonSerializerCompiler: FastifySerializerCompiler<unknown> = () => (data) =>
  JSON.stringify(data);

/**
 * The options of a route that declares `schema`: checked and written as above wherever the
 * route is mounted (the app, or a test's bare Fastify). `own` names the parts its handler checks
 * itself (`checkedAs`).
 *
 * @example
 * app.post('/lang', schemaRoute({ tags: ['client'], body: LangBodySchema }), handler);
 * app.get('/sessions', schemaRoute({ querystring: ListSessionsQuerySchema }, { querystring: null }), handler);
 */
export function schemaRoute<S extends FastifySchema>(schema: S, own?: OwnChecks) {
  return {
    schema,
    validatorCompiler: own ? checkedAs(own) : typeboxValidatorCompiler,
    serializerCompiler: jsonSerializerCompiler,
  };
}
