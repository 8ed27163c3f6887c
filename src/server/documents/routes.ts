import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from '../http/errors';
import { compileCheck } from '../sessions/problems';
import type { SessionRecord } from '../store/types';
import {
  DOCUMENT_LIMITS,
  DocumentUploadBodySchema,
  type DocumentUploadBody,
} from '../../core/api/documents';
import type { Documents } from './service';

const checkUpload = compileCheck(DocumentUploadBodySchema);

/** Set by the client-token hook of the enclosing scope (routes/client.ts). */
function sessionOf(request: FastifyRequest): SessionRecord {
  if (!request.clientSession) throw new Error('document route without the client-token hook');
  return request.clientSession;
}

type NodeParams = { Params: { nodeId: string } };

/**
 * The document-scan routes of the hosted page, inside the client-token scope of `/client`:
 * `POST /nodes/:nodeId/document` (a photo), `…/document/cancel`, `…/document/timeout`.
 *
 * @example
 * // the document_scan node's routes (src/server/nodes/document_scan.ts):
 * await authed.register(async (scope) => documentRoutes(scope, { documents }));
 */
export function documentRoutes(app: FastifyInstance, deps: { documents: Documents }): void {
  const docs = deps.documents;

  app.post<NodeParams>(
    '/nodes/:nodeId/document',
    { bodyLimit: DOCUMENT_LIMITS.bodyBytes },
    async (request) => {
      const body = request.body ?? {};
      const problems = checkUpload(body);
      if (problems.length) throw invalid(problems);
      return docs.upload(sessionOf(request), request.params.nodeId, body as DocumentUploadBody);
    },
  );

  app.post<NodeParams>('/nodes/:nodeId/document/cancel', async (request) =>
    docs.cancel(sessionOf(request), request.params.nodeId),
  );

  app.post<NodeParams>('/nodes/:nodeId/document/timeout', async (request) =>
    docs.timeout(sessionOf(request), request.params.nodeId),
  );
}
