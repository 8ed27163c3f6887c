import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientRoute } from '../http/routeDocs';
import type { SessionRecord } from '../store/types';
import type { Faces } from './faces';
import { RunNodeAnswerSchema, RunNodeBodySchema } from './schemas';

/** Set by the client-token hook of the enclosing scope (routes/client.ts). */
function sessionOf(request: FastifyRequest): SessionRecord {
  if (!request.clientSession) throw new Error('face route without the client-token hook');
  return request.clientSession;
}

/**
 * `POST /client/nodes/:nodeId/run` `{}`: the server decides the current face_compare or
 * recognition node at once and answers the new position.
 *
 * @example
 * // inside the scope whose onRequest hook sets request.clientSession:
 * await authed.register(async (scope) => faceRoutes(scope, { faces }));
 */
export function faceRoutes(app: FastifyInstance, deps: { faces: Faces }): void {
  const run = clientRoute(
    'Decide a face_compare or recognition node now (the server compares)',
    RunNodeBodySchema,
    RunNodeAnswerSchema,
  );
  app.post<{ Params: { nodeId: string } }>('/nodes/:nodeId/run', run, async (request) =>
    deps.faces.run(sessionOf(request), request.params.nodeId),
  );
}
