/**
 * `POST /client/nodes/:nodeId/run` `{}`: the page asks the server to run the current node that the
 * server decides by itself once asked: a face_compare or recognition node (the server compares
 * faces, `src/server/faces/`) or an external_call node (the server calls the integrator's
 * endpoint, `src/server/external/`). It answers the new position.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ExternalCalls } from '../external/external-calls';
import type { Faces } from '../faces/faces';
import { RunNodeAnswerSchema, RunNodeBodySchema } from '../faces/schemas';
import { currentNode } from '../flow/runtime';
import { clientRoute } from '../http/routeDocs';
import type { SessionRecord } from '../store/types';

/** Set by the client-token hook of the enclosing scope (routes/client.ts). */
function sessionOf(request: FastifyRequest): SessionRecord {
  if (!request.clientSession) throw new Error('run route without the client-token hook');
  return request.clientSession;
}

/**
 * Registers the run route (once, for the kinds that share it).
 *
 * @example
 * await authed.register(async (scope) => runRoutes(scope, { faces, externalCalls }));
 */
export function runRoutes(
  app: FastifyInstance,
  deps: { faces: Faces; externalCalls: ExternalCalls },
): void {
  const run = clientRoute(
    'Run a face_compare, recognition or external_call node now (the server decides)',
    RunNodeBodySchema,
    RunNodeAnswerSchema,
  );
  app.post<{ Params: { nodeId: string } }>('/nodes/:nodeId/run', run, async (request) => {
    const s = sessionOf(request);
    const { nodeId } = request.params;
    // Any other node (or one no longer current) gets the faces' refusal, which names the kinds.
    return currentNode(s)?.type === 'external_call' && currentNode(s)?.id === nodeId
      ? deps.externalCalls.run(s, nodeId)
      : deps.faces.run(s, nodeId);
  });
}
