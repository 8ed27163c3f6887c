import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from '../http/errors';
import { compileCheck } from '../sessions/problems';
import type { SessionRecord } from '../store/types';
import type { Faces } from './faces';
import { RunNodeBodySchema } from './schemas';

const checkRun = compileCheck(RunNodeBodySchema);

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
  app.post<{ Params: { nodeId: string } }>('/nodes/:nodeId/run', async (request) => {
    const problems = checkRun(request.body ?? {});
    if (problems.length) throw invalid(problems);
    return deps.faces.run(sessionOf(request), request.params.nodeId);
  });
}
