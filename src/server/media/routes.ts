/**
 * `GET /media/:mediaId?expires=…&sig=…`: the download behind a signed URL. It needs no API key or
 * client token (the signature is the credential), so it is registered outside those scopes.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../clock';
import { ErrorBodySchema } from '../../core/api';
import { ApiError } from '../http/errors';
import { answer } from '../http/routeDocs';
import { schemaRoute } from '../http/validation';
import type { MediaService } from './types';

/**
 * The query of a signed URL, for the OpenAPI document. Fastify does not check it: a missing or
 * malformed part is a refused URL (403 `media_url_invalid`), not a 400.
 */
export const MediaUrlQuerySchema = Type.Object(
  {
    expires: Type.String({
      pattern: '^[0-9]{1,15}$',
      description: 'Unix ms when the URL expires.',
    }),
    sig: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'Hex HMAC-SHA256 of `{id}.{expires}` with the media signing key.',
    }),
  },
  { $id: 'MediaUrlQuery' },
);

export interface MediaRouteOptions {
  /** For `Cache-Control: max-age`; give the clock the MediaService was given. */
  clock?: Clock;
}

/**
 * A refused URL answers 403 with the spec's error body. 403 rather than the usual 401 of
 * `authentication_error`: no other credential would help, the link itself is spent or forged.
 */
function refused(reason: 'expired' | 'invalid'): {
  status: number;
  body: ReturnType<ApiError['body']>;
} {
  const err =
    reason === 'expired'
      ? new ApiError('authentication_error', 'This media URL has expired; ask for a new one', {
          code: 'media_url_expired',
        })
      : new ApiError('authentication_error', 'This media URL is not valid', {
          code: 'media_url_invalid',
        });
  return { status: 403, body: err.body() };
}

const download = schemaRoute(
  {
    tags: ['media'],
    summary: 'Download a media file by the signed URL of an event or report (15 minutes)',
    // The signature in the query is the credential.
    security: [],
    querystring: MediaUrlQuerySchema,
    response: {
      200: {
        description: 'The file, with its content type.',
        content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } } },
      },
      403: answer(ErrorBodySchema, 'authentication_error: media_url_expired or media_url_invalid.'),
      404: answer(ErrorBodySchema, 'not_found_error: no such media, or it was deleted.'),
    },
  },
  { querystring: null },
);

/**
 * Adds `GET /media/:mediaId` to an app or scope.
 *
 * @example
 * app.register(async (scope) => mediaRoutes(scope, media, { clock }));
 */
export function mediaRoutes(
  app: FastifyInstance,
  media: MediaService,
  options: MediaRouteOptions = {},
): void {
  const clock = options.clock ?? systemClock;
  app.get<{
    Params: { mediaId: string };
    Querystring: Partial<Static<typeof MediaUrlQuerySchema>>;
  }>('/media/:mediaId', download, async (request, reply) => {
    const { mediaId: id } = request.params;
    const { expires, sig } = request.query;
    // Served bytes are never sniffed into HTML or script, whatever they hold.
    reply.header('X-Content-Type-Options', 'nosniff');
    const check = media.verify(id, one(expires), one(sig));
    if (check !== 'ok') {
      const r = refused(check);
      // A refusal must not be cached: the holder may come back with a fresh URL.
      return reply.code(r.status).header('Cache-Control', 'no-store').send(r.body);
    }
    const found = await media.read(id);
    if (!found) {
      return reply
        .code(404)
        .header('Cache-Control', 'no-store')
        .send(new ApiError('not_found_error', 'Media not found').body());
    }
    const secondsLeft = Math.max(0, Math.floor((Number(expires) - clock.now()) / 1000));
    return reply
      .code(200)
      .header('Content-Type', found.record.contentType)
      .header('Cache-Control', `private, max-age=${secondsLeft}`)
      .header('Content-Length', found.bytes.length)
      .send(found.bytes);
  });
}

/** A repeated query parameter arrives as an array; a URL we signed never has one. */
function one(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
