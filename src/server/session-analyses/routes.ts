import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorHandler, invalid } from '../http/errors';
import { compileCheck } from '../sessions/problems';
import type { SessionRecord } from '../store/types';
import { VIDEO_LIMITS, VideoFrameBodySchema, type VideoFrameBody } from './schema';
import type { Analyses } from './service';

const checkFrame = compileCheck(VideoFrameBodySchema);

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
    raw.post('/video', { bodyLimit: VIDEO_LIMITS.maxVideoBytes }, async (request) => {
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

  app.post('/video/frames', async (request) => {
    const value = request.body ?? {};
    const problems = checkFrame(value);
    if (problems.length) throw invalid(problems);
    return deps.analyses.addVideoFrame(sessionOf(request), value as VideoFrameBody);
  });
}
