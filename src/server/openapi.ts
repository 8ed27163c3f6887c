import { Type, type TSchema } from '@sinclair/typebox';
import {
  API_LIMITS,
  API_VERSIONS,
  AvatarListSchema,
  ClientSecretSchema,
  CreateSessionBodySchema,
  DocumentAnswerSchema,
  DocumentUploadBodySchema,
  ErrorBodySchema,
  ExchangeBodySchema,
  LATEST_VERSION,
  LangBodySchema,
  LanguageListSchema,
  LivenessAttemptAnswerSchema,
  LivenessFinishBodySchema,
  LivenessFrameAnswerSchema,
  LivenessFrameBodySchema,
  LivenessStartAnswerSchema,
  LivenessStartBodySchema,
  ListSessionsQuerySchema,
  OtpSendBodySchema,
  OtpVerifyBodySchema,
  PositionSchema,
  PublicSessionSchema,
  ReplyBodySchema,
  ResultBodySchema,
  SessionListSchema,
  SessionSchema,
} from '../core/api';
import { VIDEO_LIMITS, VideoFrameBodySchema } from './session-analyses/schema';
import { RunNodeBodySchema } from './faces/schemas';
import { MediaUrlQuerySchema } from './media';

type Json = Record<string, unknown>;

const SessionWithSecretSchema = Type.Object(
  { session: SessionSchema, clientSecret: ClientSecretSchema },
  { $id: 'SessionWithSecret' },
);
const SessionAnswerSchema = Type.Object(
  { session: PublicSessionSchema, position: PositionSchema },
  { $id: 'ClientSessionAnswer' },
);

/**
 * Plain JSON of a TypeBox schema with every nested `$id` schema moved to `components.schemas`
 * and replaced by a `$ref` (TypeBox's symbols drop out on the way).
 */
function hoist(schema: TSchema, components: Record<string, Json>): Json {
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (node === null || typeof node !== 'object') return node;
    const obj = node as Json;
    const id = obj['$id'];
    if (typeof id === 'string' && !top) {
      if (!components[id]) {
        components[id] = {};
        components[id] = walk(obj, true) as Json;
      }
      return { $ref: `#/components/schemas/${id}` };
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(obj)) {
      if (k === '$id') continue;
      out[k] = walk(v, false);
    }
    return out;
  };
  return walk(JSON.parse(JSON.stringify(schema)), false) as Json;
}

/**
 * The OpenAPI 3.1 document of the service, generated from the same TypeBox schemas the server
 * validates with, so the two cannot drift.
 *
 * @example
 * const doc = buildOpenApi('http://localhost:3000');
 * doc.openapi; // '3.1.0'
 */
export function buildOpenApi(publicUrl: string): Json {
  const components: Record<string, Json> = {};
  const s = (schema: TSchema) => hoist(schema, components);
  const json = (schema: TSchema, description: string) => ({
    description,
    headers: {
      'Service-Version': { $ref: '#/components/headers/ServiceVersion' },
    },
    content: { 'application/json': { schema: s(schema) } },
  });
  const rated = (r: Json) => ({
    ...r,
    headers: {
      ...(r['headers'] as Json),
      'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
      'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
      'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
    },
  });
  const error = (description: string) => json(ErrorBodySchema, description);
  const errors = (...codes: number[]) => {
    const all: Record<number, Json> = {
      400: error('validation_error: invalid parameters, body or Service-Version.'),
      401: error(
        'authentication_error: missing or invalid key (code api_key_missing / api_key_invalid).',
      ),
      404: error('not_found_error: Session not found.'),
      429: {
        ...error('rate_limit_error: too many requests; see Retry-After.'),
        headers: {
          'Service-Version': { $ref: '#/components/headers/ServiceVersion' },
          'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' },
        },
      },
      500: error('api_error: something failed on our side.'),
    };
    return Object.fromEntries(codes.map((c) => [String(c), all[c]]));
  };
  const versionParam = { $ref: '#/components/parameters/ServiceVersion' };
  const sessionId = {
    name: 'sessionId',
    in: 'path',
    required: true,
    schema: { type: 'string' },
  };
  const queryParams = Object.entries(
    (JSON.parse(JSON.stringify(ListSessionsQuerySchema)) as { properties: Record<string, Json> })
      .properties,
  ).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema,
    ...(name === 'status' ? { style: 'form', explode: true } : {}),
  }));
  const api = { security: [{ apiKey: [] }], tags: ['sessions'] };
  const attemptOp = (summary: string, body: TSchema | null) => ({
    tags: ['client'],
    summary,
    security: [{ clientToken: [] }],
    parameters: ['nodeId', 'attemptId'].map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...(body
      ? { requestBody: { required: true, content: { 'application/json': { schema: s(body) } } } }
      : {}),
  });
  const clientOp = (summary: string, body: TSchema | null, answer: TSchema, nodeParam = false) => ({
    tags: ['client'],
    summary,
    security: [{ clientToken: [] }],
    ...(nodeParam
      ? { parameters: [{ name: 'nodeId', in: 'path', required: true, schema: { type: 'string' } }] }
      : {}),
    ...(body
      ? { requestBody: { required: true, content: { 'application/json': { schema: s(body) } } } }
      : {}),
    responses: {
      '200': json(answer, 'OK'),
      ...errors(400, 401, 429),
    },
  });
  const nodeAnswer = (extra: Record<string, TSchema>) =>
    Type.Object({ ...extra, position: PositionSchema });

  const paths: Json = {
    '/sessions': {
      post: {
        ...api,
        operationId: 'createSession',
        summary: 'Create a session',
        parameters: [versionParam],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: s(CreateSessionBodySchema) } },
        },
        responses: {
          '200': rated(json(SessionWithSecretSchema, 'The new session and its client secret.')),
          ...errors(400, 401, 429, 500),
        },
      },
      get: {
        ...api,
        operationId: 'listSessions',
        summary: 'List sessions (keyset cursor pagination)',
        parameters: [versionParam, ...queryParams],
        responses: {
          '200': rated(json(SessionListSchema, 'A page of sessions.')),
          ...errors(400, 401, 429, 500),
        },
      },
    },
    '/sessions/{sessionId}': {
      get: {
        ...api,
        operationId: 'getSession',
        summary: 'Retrieve a session',
        parameters: [versionParam, sessionId],
        responses: {
          '200': rated(json(SessionWithSecretSchema, 'The session and its latest client secret.')),
          ...errors(400, 401, 404, 429, 500),
        },
      },
    },
    '/sessions/{sessionId}/refresh': {
      get: {
        ...api,
        operationId: 'refreshClientSecret',
        summary: 'Replace the client secret (every earlier one dies)',
        parameters: [versionParam, sessionId],
        responses: {
          '200': rated(
            json(
              ClientSecretSchema,
              'The new client secret (wrapped as { clientSecret } in 2025-01-01).',
            ),
          ),
          ...errors(400, 401, 404, 429, 500),
        },
      },
    },
    '/avatars': {
      get: {
        ...api,
        tags: ['catalog'],
        operationId: 'listAvatars',
        summary: 'List avatars',
        parameters: [versionParam],
        responses: {
          '200': rated(json(AvatarListSchema, 'The avatars.')),
          ...errors(400, 401, 429),
        },
      },
    },
    '/langs': {
      get: {
        ...api,
        tags: ['catalog'],
        operationId: 'listLangs',
        summary: 'List languages',
        parameters: [versionParam],
        responses: {
          '200': rated(json(LanguageListSchema, 'The languages.')),
          ...errors(400, 401, 429),
        },
      },
    },
    '/client/exchange': {
      post: {
        ...clientOp(
          'Exchange a client secret once for a client token',
          ExchangeBodySchema,
          Type.Object({
            token: Type.String(),
            session: PublicSessionSchema,
            position: PositionSchema,
          }),
        ),
        security: [],
      },
    },
    '/client/session': {
      get: clientOp('The session as the page sees it', null, SessionAnswerSchema),
    },
    '/client/lang': {
      post: clientOp('Record the language', LangBodySchema, Type.Object({ lang: Type.String() })),
    },
    '/client/nodes/{nodeId}/prompt': {
      get: clientOp(
        'What the avatar says at the node',
        null,
        Type.Object({ text: Type.String() }),
        true,
      ),
    },
    '/client/nodes/{nodeId}/reply': {
      post: clientOp(
        'A reply to a conversation node',
        ReplyBodySchema,
        nodeAnswer({ outcome: Type.Union([Type.String(), Type.Null()]) }),
        true,
      ),
    },
    '/client/nodes/{nodeId}/result': {
      post: clientOp('An outcome the user decided', ResultBodySchema, nodeAnswer({}), true),
    },
    '/client/nodes/{nodeId}/otp/send': {
      post: clientOp(
        'Send a one-time code',
        OtpSendBodySchema,
        Type.Union([
          Type.Object({
            sentTo: Type.String(),
            expiresAt: Type.Integer(),
            resendAfter: Type.Integer(),
          }),
          nodeAnswer({}),
        ]),
        true,
      ),
    },
    '/client/nodes/{nodeId}/otp/verify': {
      post: clientOp(
        'Check a one-time code',
        OtpVerifyBodySchema,
        nodeAnswer({ verified: Type.Boolean(), attemptsLeft: Type.Integer() }),
        true,
      ),
    },
    '/client/exit': { post: clientOp('Leave: the session ends incomplete', null, nodeAnswer({})) },
    '/client/nodes/{nodeId}/run': {
      post: clientOp(
        'Decide a face_compare or recognition node now (the server compares)',
        RunNodeBodySchema,
        nodeAnswer({}),
        true,
      ),
    },
    '/client/nodes/{nodeId}/document': {
      post: clientOp(
        'A photo of the document: the server reads and checks its MRZ (docs/documents.md)',
        DocumentUploadBodySchema,
        DocumentAnswerSchema,
        true,
      ),
    },
    '/client/nodes/{nodeId}/document/cancel': {
      post: clientOp('The user gave up the scan: userCancelled', null, nodeAnswer({}), true),
    },
    '/client/nodes/{nodeId}/document/timeout': {
      post: clientOp(
        'The scan ran out of time: scanTimeout (refused before timeoutSeconds)',
        null,
        nodeAnswer({}),
        true,
      ),
    },
    '/client/video': {
      post: {
        ...clientOp(
          'The session recording, as the raw body (once per session)',
          null,
          Type.Object({ mediaId: Type.String() }),
        ),
        requestBody: {
          required: true,
          content: Object.fromEntries(
            VIDEO_LIMITS.contentTypes.map((type) => [
              type,
              { schema: { type: 'string', contentMediaType: type } },
            ]),
          ),
        },
      },
    },
    '/client/video/frames': {
      post: clientOp(
        'One camera frame sampled while the session is recorded',
        VideoFrameBodySchema,
        Type.Object({ received: Type.Integer() }),
      ),
    },
    '/client/nodes/{nodeId}/liveness/start': {
      post: clientOp(
        'Start a liveness attempt: the server picks its challenges',
        LivenessStartBodySchema,
        LivenessStartAnswerSchema,
        true,
      ),
    },
    '/client/nodes/{nodeId}/liveness/{attemptId}/frames': {
      post: {
        ...attemptOp('Upload one camera frame of the attempt', LivenessFrameBodySchema),
        responses: {
          '202': json(LivenessFrameAnswerSchema, 'Stored; its analysis is queued.'),
          ...errors(400, 401, 404, 429),
        },
      },
    },
    '/client/nodes/{nodeId}/liveness/{attemptId}/finish': {
      post: {
        ...attemptOp('The capture is over: the server decides', LivenessFinishBodySchema),
        responses: {
          '200': json(LivenessAttemptAnswerSchema, 'Decided at once (no camera).'),
          '202': json(LivenessAttemptAnswerSchema, 'The decision is queued; poll the attempt.'),
          ...errors(400, 401, 404, 429),
        },
      },
    },
    '/client/nodes/{nodeId}/liveness/{attemptId}': {
      get: {
        ...attemptOp('Where the attempt stands; the next position once decided', null),
        responses: {
          '200': json(LivenessAttemptAnswerSchema, 'OK'),
          ...errors(400, 401, 404, 429),
        },
      },
    },
    '/media/{mediaId}': {
      get: {
        tags: ['media'],
        summary: 'Download a media file by the signed URL of an event or report (15 minutes)',
        security: [],
        parameters: [
          { name: 'mediaId', in: 'path', required: true, schema: { type: 'string' } },
          ...Object.entries(
            (
              JSON.parse(JSON.stringify(MediaUrlQuerySchema)) as {
                properties: Record<string, Json>;
              }
            ).properties,
          ).map(([name, schema]) => ({ name, in: 'query', required: true, schema })),
        ],
        responses: {
          '200': {
            description: 'The file, with its content type.',
            content: {
              'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
            },
          },
          '403': error('authentication_error: media_url_expired or media_url_invalid.'),
          '404': error('not_found_error: no such media, or it was deleted.'),
        },
      },
    },
  };

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Identity verification sessions',
      version: LATEST_VERSION,
      description:
        'Sessions, flows, reports and client secrets. Every path also works under /v1. ' +
        `Versions by Service-Version header: ${API_VERSIONS.join(', ')} (default ${LATEST_VERSION}). ` +
        `Request bodies up to ${API_LIMITS.maxBodyBytes / (1024 * 1024)} MB, ` +
        `nesting arrays and objects at most ${API_LIMITS.maxJsonDepth} levels deep.`,
    },
    servers: [{ url: publicUrl }],
    tags: [
      { name: 'sessions', description: 'The integrator API (bearer API key).' },
      { name: 'catalog', description: 'Avatars and languages.' },
      { name: 'client', description: 'What the hosted page calls (bearer client token).' },
      { name: 'media', description: 'Signed download URLs of media events and reports.' },
    ],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_…' },
        clientToken: { type: 'http', scheme: 'bearer', description: 'ct_… from /client/exchange' },
      },
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: [...API_VERSIONS] },
          description: `The API version; default ${LATEST_VERSION}.`,
        },
      },
      headers: {
        ServiceVersion: {
          schema: { type: 'string' },
          description: 'The version that served the response.',
        },
        RateLimitLimit: { schema: { type: 'integer' } },
        RateLimitRemaining: { schema: { type: 'integer' } },
        RateLimitReset: { schema: { type: 'integer' }, description: 'Seconds until a slot frees.' },
      },
    },
  };
}
