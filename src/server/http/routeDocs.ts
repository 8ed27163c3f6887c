/**
 * Pieces of the routes' `schema:` that every route says alike: its answers (with the headers the
 * app sets on them), its error answers, the `Service-Version` request header. The OpenAPI
 * document is generated from these declarations (openapiDoc.ts).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import {
  API_VERSIONS,
  ErrorBodySchema,
  LATEST_VERSION,
  PositionSchema,
  SDK_PINNED_VERSIONS,
} from '../../core/api';
import { schemaRoute } from './validation';

type HeaderSchemas = Record<string, { type: string; description?: string }>;

const VERSION_HEADER: HeaderSchemas = {
  'Service-Version': { type: 'string', description: 'The version that served the response.' },
};

const RATE_HEADERS: HeaderSchemas = {
  'RateLimit-Limit': { type: 'integer' },
  'RateLimit-Remaining': { type: 'integer' },
  'RateLimit-Reset': { type: 'integer', description: 'Seconds until a slot frees.' },
};

/** One documented answer: its schema as JSON, with its description and headers. */
export interface Answer {
  description: string;
  headers: HeaderSchemas;
  content: Record<string, { schema: TSchema | Record<string, unknown> }>;
}

/**
 * A JSON answer of a route, for `schema.response`.
 *
 * @example
 * response: { 200: answer(SessionListSchema, 'A page of sessions.', { rated: true }) }
 */
export function answer(schema: TSchema, description: string, opts: { rated?: boolean } = {}) {
  return {
    description,
    headers: { ...VERSION_HEADER, ...(opts.rated ? RATE_HEADERS : {}) },
    content: { 'application/json': { schema } },
  } satisfies Answer;
}

const ERROR_ANSWERS = {
  400: answer(ErrorBodySchema, 'validation_error: invalid parameters, body or Service-Version.'),
  401: answer(
    ErrorBodySchema,
    'authentication_error: missing or invalid key (code api_key_missing / api_key_invalid).',
  ),
  404: answer(ErrorBodySchema, 'not_found_error: Session not found.'),
  429: {
    ...answer(ErrorBodySchema, 'rate_limit_error: too many requests; see Retry-After.'),
    headers: {
      ...VERSION_HEADER,
      'Retry-After': { type: 'integer', description: 'Seconds to wait.' },
    },
  },
  500: answer(ErrorBodySchema, 'api_error: something failed on our side.'),
} as const;

/**
 * The error answers a route can give, each with the spec's error body.
 *
 * @example
 * response: { 200: answer(…), ...errorAnswers(400, 401, 429) }
 */
export function errorAnswers(...codes: (keyof typeof ERROR_ANSWERS)[]): Record<string, Answer> {
  return Object.fromEntries(codes.map((c) => [String(c), ERROR_ANSWERS[c]]));
}

/**
 * The request header every route of the public API reads (`readVersion`, which also refuses an
 * unknown one), for `schema.headers`.
 */
export const VersionHeaderSchema = Type.Object({
  'Service-Version': Type.Optional(
    Type.String({
      enum: [...API_VERSIONS],
      description: `The API version; default ${LATEST_VERSION}.`,
    }),
  ),
  'Facesign-Version': Type.Optional(
    Type.String({
      enum: [...Object.keys(SDK_PINNED_VERSIONS), ...API_VERSIONS],
      description:
        "The original product's SDK's version header, read when Service-Version is absent; " +
        `its pinned ${Object.keys(SDK_PINNED_VERSIONS).join(', ')} means ${LATEST_VERSION}.`,
    }),
  ),
});

/** What every route of the client API (`/client`, for the hosted page) says alike. */
export const CLIENT_API = { tags: ['client'], security: [{ clientToken: [] }] };

/**
 * The answers of a client-API route: its JSON answer and the errors every one of them can give.
 *
 * @example
 * response: clientAnswers(Type.Object({ lang: Type.String() }))
 */
export function clientAnswers(schema: TSchema, description = 'OK'): Record<string, Answer> {
  return { 200: answer(schema, description), ...errorAnswers(400, 401, 429) };
}

/**
 * A client-API answer that ends with where the flow now is.
 *
 * @example
 * nodeAnswer({ verified: Type.Boolean() }); // { verified, position }
 */
export const nodeAnswer = (extra: Record<string, TSchema> = {}) =>
  Type.Object({ ...extra, position: PositionSchema });

/**
 * The `schema:` of a client-API route: what it does, the body Fastify checks (if it takes one),
 * its answer and errors.
 *
 * @example
 * app.post('/lang', clientRoute('Record the language', LangBodySchema, LangAnswer), handler);
 */
export function clientRoute(
  summary: string,
  body: TSchema | null,
  answerSchema: TSchema,
  opts: { security?: { [scheme: string]: string[] }[] } = {},
) {
  return schemaRoute({
    ...CLIENT_API,
    ...opts,
    summary,
    ...(body ? { body } : {}),
    response: clientAnswers(answerSchema),
  });
}
