/**
 * The `schema:` of the public API's routes (docs/api.md): what Fastify checks, what the OpenAPI
 * document shows. Every route here takes the API key and reads `Service-Version`.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import {
  AvatarListSchema,
  ClientSecretSchema,
  CreateSessionBodyCheckSchema,
  CreateSessionBodySchema,
  LanguageListSchema,
  ListSessionsQuerySchema,
  SessionListSchema,
  SessionSchema,
} from '../../core/api';
import { VersionHeaderSchema, answer, errorAnswers } from '../http/routeDocs';
import { schemaRoute } from '../http/validation';

/**
 * The headers `POST /sessions` reads. The key's format is checked by the route
 * (`idempotencyKeyOf`), so that a bad key gets its own error code.
 */
const CreateHeadersSchema = Type.Composite([
  VersionHeaderSchema,
  Type.Object({
    'Idempotency-Key': Type.Optional(
      Type.String({
        description:
          'Makes the create safe to retry for 24 hours: a repeat with the same key, body and version gets the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is a `validation_error` (code `idempotency_key_mismatch`). 1–255 printable ASCII characters (docs/api.md, "Retrying a create safely").',
      }),
    ),
  }),
]);

const SessionWithSecretSchema = Type.Object(
  { session: SessionSchema, clientSecret: ClientSecretSchema },
  { $id: 'SessionWithSecret' },
);

type ErrorCode = Parameters<typeof errorAnswers>[number];

const apiSchema = (
  tag: 'sessions' | 'catalog',
  operationId: string,
  summary: string,
  ok: [TSchema, string],
  errors: ErrorCode[],
  request: Pick<FastifySchema, 'body' | 'querystring' | 'headers'> = {},
) => ({
  tags: [tag],
  security: [{ apiKey: [] }],
  operationId,
  summary,
  headers: VersionHeaderSchema,
  ...request,
  response: { 200: answer(ok[0], ok[1], { rated: true }), ...errorAnswers(...errors) },
});

export const API_ROUTES = {
  createSession: {
    ...schemaRoute(
      apiSchema(
        'sessions',
        'createSession',
        'Create a session',
        [SessionWithSecretSchema, 'The new session and its client secret.'],
        [400, 401, 429, 500],
        { body: CreateSessionBodySchema, headers: CreateHeadersSchema },
      ),
      // The body's fields are checked by their schema; its flow (or legacy modules) by the flow
      // core in buildSession, under the version's rules, every problem at once with its node.
      { body: CreateSessionBodyCheckSchema },
    ),
    // The handler adds the schema's problems to the core's, so all are told at once.
    attachValidation: true,
  },
  listSessions: schemaRoute(
    apiSchema(
      'sessions',
      'listSessions',
      'List sessions (keyset cursor pagination)',
      [SessionListSchema, 'A page of sessions.'],
      [400, 401, 429, 500],
      { querystring: ListSessionsQuerySchema },
    ),
    // Every value arrives as a string, `status` possibly repeated, dates in the version's unit:
    // parseListQuery reads them and reports every problem at once.
    { querystring: null },
  ),
  getSession: schemaRoute(
    apiSchema(
      'sessions',
      'getSession',
      'Retrieve a session',
      [SessionWithSecretSchema, 'The session and its latest client secret.'],
      [400, 401, 404, 429, 500],
    ),
  ),
  refreshClientSecret: schemaRoute(
    apiSchema(
      'sessions',
      'refreshClientSecret',
      'Replace the client secret (every earlier one dies)',
      [ClientSecretSchema, 'The new client secret (wrapped as { clientSecret } in 2025-01-01).'],
      [400, 401, 404, 429, 500],
    ),
  ),
  eraseSession: schemaRoute(
    apiSchema(
      'sessions',
      'eraseSession',
      'Erase a session: its media, report data and face-index entry go, a tombstone stays',
      [
        SessionWithSecretSchema,
        'The tombstone (`erasedAt` set), as a retrieve shows it. Erasing it again changes nothing.',
      ],
      [400, 401, 404, 429, 500],
    ),
  ),
  listAvatars: schemaRoute(
    apiSchema(
      'catalog',
      'listAvatars',
      'List avatars',
      [AvatarListSchema, 'The avatars.'],
      [400, 401, 429],
    ),
  ),
  listLangs: schemaRoute(
    apiSchema(
      'catalog',
      'listLangs',
      'List languages',
      [LanguageListSchema, 'The languages.'],
      [400, 401, 429],
    ),
  ),
};
