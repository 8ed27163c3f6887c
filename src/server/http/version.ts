import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  API_VERSIONS,
  LATEST_VERSION,
  parseVersion,
  responseFor,
  type ApiVersion,
  type Operation,
} from '../../core/api';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    apiVersion: ApiVersion;
  }
}

/**
 * Root `onRequest` hook: reads `Service-Version` (absent: the latest; unknown: a
 * `validation_error` naming the known ones).
 *
 * @example
 * app.addHook('onRequest', readVersion);
 */
export function readVersion(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  request.apiVersion = LATEST_VERSION;
  const raw = request.headers['service-version'];
  if (raw === undefined) return done();
  const header = Array.isArray(raw) ? raw[0] : raw;
  const v = parseVersion(header);
  if (!v) {
    return done(
      new ApiError(
        'validation_error',
        `Unknown Service-Version "${header}"; known versions: ${API_VERSIONS.join(', ')}`,
        { code: 'version_unknown' },
      ),
    );
  }
  request.apiVersion = v;
  done();
}

/**
 * Root `onSend` hook: every response says which version served it.
 *
 * @example
 * app.addHook('onSend', stampVersion);
 */
export function stampVersion(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload: unknown) => void,
): void {
  reply.header('Service-Version', request.apiVersion ?? LATEST_VERSION);
  done(null, payload);
}

/**
 * Sends a latest-version body in the request's version (the only place versions meet handlers).
 *
 * @example
 * return sendAs(request, reply, 'sessions.get', { session, clientSecret });
 */
export function sendAs(
  request: FastifyRequest,
  reply: FastifyReply,
  op: Operation,
  body: unknown,
): FastifyReply {
  return reply.send(responseFor(request.apiVersion ?? LATEST_VERSION, op, body));
}
