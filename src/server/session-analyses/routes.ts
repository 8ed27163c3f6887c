import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorHandler, invalid } from '../http/errors';
import { CLIENT_API, clientAnswers, clientRoute } from '../http/routeDocs';
import { schemaRoute, type Body } from '../http/validation';
import type { SessionRecord } from '../store/types';
import { VIDEO_LIMITS, VideoFrameBodySchema } from './schema';
import type { Analyses } from './service';

/** The raw recording, by content type: documented here, taken as bytes by the scope's parser. */
const video = {
  ...schemaRoute(
    {
      ...CLIENT_API,
      summary: 'The session recording, as the raw body (once per session)',
      body: {
        content: Object.fromEntries(
          VIDEO_LIMITS.contentTypes.map((type) => [
            type,
            { schema: { type: 'string', contentMediaType: type } },
          ]),
        ),
      },
      response: clientAnswers(Type.Object({ mediaId: Type.String() })),
    },
    // Bytes, not JSON: the handler checks what it got.
    { body: null },
  ),
  bodyLimit: VIDEO_LIMITS.maxVideoBytes,
};

/** Set by the client-token hook of the enclosing scope (routes/client.ts). */
function sessionOf(request: FastifyRequest): SessionRecord {
  if (!request.clientSession) throw new Error('video route without the client-token hook');
  return request.clientSession;
}

/** The app's body-size message names the app's limit; the video has its own. */
function videoErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const api = new ApiError(
      'validation_error',
      `Request body is too large: a session video is at most ${VIDEO_LIMITS.maxVideoBytes / 1024 / 1024} MB`,
    );
    return reply.code(api.status).send(api.body());
  }
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const api = invalid([
      {
        path: 'content-type',
        message: `must be one of ${VIDEO_LIMITS.contentTypes.join(', ')} (the raw video as the body)`,
      },
    ]);
    return reply.code(api.status).send(api.body());
  }
  return errorHandler(err, request, reply);
}

/**
 * The session-video routes of docs/analyses.md, inside the client-token scope of `/client`:
 * `POST /video` (raw `video/webm` or `video/mp4` body) and `POST /video/frames` (`{ t, image }`).
 *
 * @example
 * await authed.register(async (scope) => analysesRoutes(scope, { analyses }));
 */
export function analysesRoutes(app: FastifyInstance, deps: { analyses: Analyses }): void {
  app.register(async (raw) => {
    // Only this scope takes raw video; every other route stays JSON-only.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser(
      [...VIDEO_LIMITS.contentTypes],
      { parseAs: 'buffer', bodyLimit: VIDEO_LIMITS.maxVideoBytes },
      (_request, body, done) => done(null, body),
    );
    raw.setErrorHandler(videoErrors);
    raw.post('/video', video, async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) {
        throw invalid([{ path: 'body', message: 'send the video as the raw request body' }]);
      }
      const type = String(request.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      return deps.analyses.saveVideo(sessionOf(request), type, body);
    });
  });

  const frames = clientRoute(
    'One camera frame sampled while the session is recorded',
    VideoFrameBodySchema,
    Type.Object({ received: Type.Integer() }),
  );
  app.post<Body<typeof VideoFrameBodySchema>>('/video/frames', frames, async (request) =>
    deps.analyses.addVideoFrame(sessionOf(request), request.body),
  );
}
