import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  LIVENESS_LIMITS,
  LivenessFinishBodySchema,
  LivenessFrameBodySchema,
  LivenessStartBodySchema,
  type LivenessFinishBody,
  type LivenessFrameBody,
} from '../../core/api';
import { ApiError, errorHandler, invalid } from '../http/errors';
import { compileCheck } from '../sessions/problems';
import type { SessionRecord } from '../store/types';
import type { Liveness } from './service';

const checks = {
  start: compileCheck(LivenessStartBodySchema),
  frame: compileCheck(LivenessFrameBodySchema),
  finish: compileCheck(LivenessFinishBodySchema),
};

function bodyOf<T>(check: (v: unknown) => { path: string; message: string }[], body: unknown): T {
  const value = body ?? {};
  const problems = check(value);
  if (problems.length) throw invalid(problems);
  return value as T;
}

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

  app.post<{ Params: { nodeId: string } }>('/nodes/:nodeId/liveness/start', async (request) => {
    bodyOf(checks.start, request.body);
    return liveness.start(sessionOf(request), request.params.nodeId);
  });

  app.post<AttemptParams>(
    '/nodes/:nodeId/liveness/:attemptId/frames',
    { bodyLimit: LIVENESS_LIMITS.frameBodyBytes },
    async (request, reply) => {
      const body = bodyOf<LivenessFrameBody>(checks.frame, request.body);
      const { nodeId, attemptId } = request.params;
      const r = await liveness.frame(sessionOf(request), nodeId, attemptId, body);
      return reply.code(202).send(r);
    },
  );

  app.post<AttemptParams>('/nodes/:nodeId/liveness/:attemptId/finish', async (request, reply) => {
    const body = bodyOf<LivenessFinishBody>(checks.finish, request.body);
    const { nodeId, attemptId } = request.params;
    const r = await liveness.finish(sessionOf(request), nodeId, attemptId, body);
    return reply.code(r.status === 'decided' ? 200 : 202).send(r);
  });

  app.get<AttemptParams>('/nodes/:nodeId/liveness/:attemptId', async (request) => {
    const { nodeId, attemptId } = request.params;
    return liveness.status(sessionOf(request), nodeId, attemptId);
  });
}
