import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  API_VERSIONS,
  LATEST_VERSION,
  SDK_VERSION_HEADER,
  requestedVersion,
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
 * Root `onRequest` hook: reads `Service-Version`, or else the SDK's `Facesign-Version` (absent:
 * the latest; unknown: a `validation_error` naming the known ones) and says on the answer which
 * version serves it.
 * The header is set here rather than in an `onSend` hook: Fastify keeps a reply's headers through
 * its error handler and the not-found handler, and a route without `onSend` hooks skips their
 * runner on every answer.
 *
 * @example
 * app.addHook('onRequest', readVersion);
 */
export function readVersion(
  request: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  const first = (raw: string | string[] | undefined) => (Array.isArray(raw) ? raw[0] : raw);
  // Absent or blank: the latest. The SDK's own header stands in when Service-Version is absent.
  const asked = requestedVersion({
    serviceVersion: first(request.headers['service-version']),
    sdkVersion: first(request.headers[SDK_VERSION_HEADER]),
  });
  const v = asked.version;
  // An unknown version is refused in the latest one.
  request.apiVersion = v ?? LATEST_VERSION;
  reply.header('Service-Version', request.apiVersion);
  if (!v) {
    return done(
      new ApiError(
        'validation_error',
        `Unknown ${asked.header} "${asked.value}"; known versions: ${API_VERSIONS.join(', ')}`,
        { code: 'version_unknown' },
      ),
    );
  }
  done();
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
