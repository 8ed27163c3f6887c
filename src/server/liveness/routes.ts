import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  LIVENESS_LIMITS,
  LivenessAttemptAnswerSchema,
  LivenessFinishBodySchema,
  LivenessFrameAnswerSchema,
  LivenessFrameBodySchema,
  LivenessStartAnswerSchema,
  LivenessStartBodySchema,
} from '../../core/api';
import { ApiError, errorHandler } from '../http/errors';
import { CLIENT_API, answer, clientRoute, errorAnswers } from '../http/routeDocs';
import { schemaRoute, type Body } from '../http/validation';
import type { SessionRecord } from '../store/types';
import type { Liveness } from './service';

/** Set by the client-token hook of the enclosing scope (routes/client.ts). */
function sessionOf(request: FastifyRequest): SessionRecord {
  if (!request.clientSession) throw new Error('liveness route without the client-token hook');
  return request.clientSession;
}

type AttemptParams = { Params: { nodeId: string; attemptId: string } };

/** The app's body-size message names the app's limit; a frame has its own. */
function livenessErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const kb = LIVENESS_LIMITS.frameBodyBytes / 1024;
    const api = new ApiError(
      'validation_error',
      `Request body is too large: a frame upload is at most ${kb} KB (a JPEG of at most ${LIVENESS_LIMITS.maxFrameBytes / 1024} KB)`,
    );
    return reply.code(api.status).send(api.body());
  }
  return errorHandler(err, request, reply);
}

/**
 * The liveness routes of docs/client-api.md, inside the client-token scope of `/client`:
 * start an attempt, upload frames, finish, poll for the decision.
 *
 * @example
 * // inside the scope whose onRequest hook sets request.clientSession:
 * await authed.register(async (scope) => livenessRoutes(scope, { liveness }));
 */
export function livenessRoutes(app: FastifyInstance, deps: { liveness: Liveness }): void {
  const liveness = deps.liveness;
  app.setErrorHandler(livenessErrors);

  const start = clientRoute(
    'Start a liveness attempt: the server picks its challenges',
    LivenessStartBodySchema,
    LivenessStartAnswerSchema,
  );
  app.post<{ Params: { nodeId: string } }>(
    '/nodes/:nodeId/liveness/start',
    start,
    async (request) => liveness.start(sessionOf(request), request.params.nodeId),
  );

  const frame = {
    ...schemaRoute({
      ...CLIENT_API,
      summary: 'Upload one camera frame of the attempt',
      body: LivenessFrameBodySchema,
      response: {
        202: answer(LivenessFrameAnswerSchema, 'Stored; its analysis is queued.'),
        ...errorAnswers(400, 401, 404, 429),
      },
    }),
    bodyLimit: LIVENESS_LIMITS.frameBodyBytes,
  };
  app.post<AttemptParams & Body<typeof LivenessFrameBodySchema>>(
    '/nodes/:nodeId/liveness/:attemptId/frames',
    frame,
    async (request, reply) => {
      const { nodeId, attemptId } = request.params;
      const r = await liveness.frame(sessionOf(request), nodeId, attemptId, request.body);
      return reply.code(202).send(r);
    },
  );

  const finish = schemaRoute({
    ...CLIENT_API,
    summary: 'The capture is over: the server decides',
    body: LivenessFinishBodySchema,
    response: {
      200: answer(LivenessAttemptAnswerSchema, 'Decided at once (no camera).'),
      202: answer(LivenessAttemptAnswerSchema, 'The decision is queued; poll the attempt.'),
      ...errorAnswers(400, 401, 404, 429),
    },
  });
  app.post<AttemptParams & Body<typeof LivenessFinishBodySchema>>(
    '/nodes/:nodeId/liveness/:attemptId/finish',
    finish,
    async (request, reply) => {
      const { nodeId, attemptId } = request.params;
      const r = await liveness.finish(sessionOf(request), nodeId, attemptId, request.body);
      return reply.code(r.status === 'decided' ? 200 : 202).send(r);
    },
  );

  const status = schemaRoute({
    ...CLIENT_API,
    summary: 'Where the attempt stands; the next position once decided',
    response: {
      200: answer(LivenessAttemptAnswerSchema, 'OK'),
      ...errorAnswers(400, 401, 404, 429),
    },
  });
  app.get<AttemptParams>('/nodes/:nodeId/liveness/:attemptId', status, async (request) => {
    const { nodeId, attemptId } = request.params;
    return liveness.status(sessionOf(request), nodeId, attemptId);
  });
}
