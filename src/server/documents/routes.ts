import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { invalid } from '../http/errors';
import { compileCheck } from '../sessions/problems';
import type { SessionRecord } from '../store/types';
import { createDocumentReader, type DocumentReader } from './reader';
import {
  DOCUMENT_LIMITS,
  DocumentUploadBodySchema,
  type DocumentUploadBody,
} from '../../core/api/documents';
import { createDocuments, type Documents } from './service';

const checkUpload = compileCheck(DocumentUploadBodySchema);

/** Set by the client-token hook of the enclosing scope (routes/client.ts). */
function sessionOf(request: FastifyRequest): SessionRecord {
  if (!request.clientSession) throw new Error('document route without the client-token hook');
  return request.clientSession;
}

type NodeParams = { Params: { nodeId: string } };

let shared: DocumentReader | null = null;

/**
 * One reader per process, made on first use: its tesseract worker and face models stay warm.
 *
 * @example
 * const r = sharedDocumentReader();
 */
export function sharedDocumentReader(): DocumentReader {
  shared ??= createDocumentReader({
    analyzer: async () => (await import('../face-analysis/human-analyzer')).createHumanAnalyzer(),
  });
  return shared;
}

export interface DocumentRoutesOptions {
  /** The reader (tests, bench); the process's shared one by default. */
  reader?: DocumentReader;
  /** Receives the runtime, e.g. to close it. */
  onDocuments?: (d: Documents) => void;
}

/**
 * The document-scan routes of the hosted page, inside the client-token scope of `/client`:
 * `POST /nodes/:nodeId/document` (a photo), `…/document/cancel`, `…/document/timeout`.
 *
 * @example
 * // in routes/client.ts, next to livenessRoutes:
 * await authed.register(async (scope) => documentRoutes(scope, ctx));
 */
export function documentRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  opts: DocumentRoutesOptions = {},
): void {
  const docs = createDocuments({
    store: ctx.store,
    media: ctx.media,
    clock: ctx.clock,
    reader: () => opts.reader ?? sharedDocumentReader(),
  });
  opts.onDocuments?.(docs);

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
