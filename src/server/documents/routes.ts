import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientRoute, nodeAnswer } from '../http/routeDocs';
import type { Body } from '../http/validation';
import type { SessionRecord } from '../store/types';
import {
  DOCUMENT_LIMITS,
  DocumentAnswerSchema,
  DocumentUploadBodySchema,
} from '../../core/api/documents';
import type { Documents } from './service';

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

  const upload = clientRoute(
    'A photo of the document: the server reads and checks its MRZ (docs/documents.md)',
    DocumentUploadBodySchema,
    DocumentAnswerSchema,
  );
  app.post<NodeParams & Body<typeof DocumentUploadBodySchema>>(
    '/nodes/:nodeId/document',
    { ...upload, bodyLimit: DOCUMENT_LIMITS.bodyBytes },
    async (request) => docs.upload(sessionOf(request), request.params.nodeId, request.body),
  );

  const cancel = clientRoute('The user gave up the scan: userCancelled', null, nodeAnswer());
  app.post<NodeParams>('/nodes/:nodeId/document/cancel', cancel, async (request) =>
    docs.cancel(sessionOf(request), request.params.nodeId),
  );

  const timeout = clientRoute(
    'The scan ran out of time: scanTimeout (refused before timeoutSeconds)',
    null,
    nodeAnswer(),
  );
  app.post<NodeParams>('/nodes/:nodeId/document/timeout', timeout, async (request) =>
    docs.timeout(sessionOf(request), request.params.nodeId),
  );
}
