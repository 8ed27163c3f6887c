import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ExchangeBodySchema,
  LangBodySchema,
  OtpSendBodySchema,
  OtpVerifyBodySchema,
  ReplyBodySchema,
  ResultBodySchema,
} from '../../core/api';
import { ClientService } from '../client/service';
import type { AppContext } from '../context';
import { badCredential, bearer } from '../http/auth';
import { ApiError } from '../http/errors';
import type { Body } from '../http/validation';
import { analysesRoutes } from '../analyses/routes';
import { documentRoutes } from '../documents';
import { faceRoutes } from '../faces/routes';
import { livenessRoutes } from '../liveness/routes';
import type { SessionRecord } from '../store/types';
import { CLIENT_ROUTES as routes } from './clientSchemas';

declare module 'fastify' {
  interface FastifyRequest {
    clientSession?: SessionRecord;
  }
}

type NodeParams = { Params: { nodeId: string } };

/**
 * The routes of docs/client-api.md under `/client`, for the hosted page.
 *
 * @example
 * await app.register(async (scope) => clientRoutes(scope, ctx), { prefix: '/client' });
 */
export function clientRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = new ClientService(ctx);

  /** A refused secret or token counts against the address; a valid one is never held back. */
  const refuse = (request: FastifyRequest, err: unknown): unknown =>
    err instanceof ApiError && err.type === 'authentication_error'
      ? badCredential(
          ctx.limiter,
          request.ip,
          ctx.limits.badKeyPerIp,
          err,
          'an invalid client secret or token',
        )
      : err;

  app.post<Body<typeof ExchangeBodySchema>>('/exchange', routes.exchange, async (request) => {
    try {
      return await service.exchange({
        clientSecret: request.body.clientSecret,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
    } catch (err) {
      throw refuse(request, err);
    }
  });

  app.register(async (authed) => {
    authed.addHook('onRequest', async (request) => {
      const token = bearer(request.headers.authorization);
      try {
        if (!token) {
          throw new ApiError(
            'authentication_error',
            'Send the client token as Authorization: Bearer ct_…',
            {
              code: 'client_token_missing',
            },
          );
        }
        request.clientSession = await service.sessionOf(token);
      } catch (err) {
        throw refuse(request, err);
      }
    });
    const sessionOf = (request: FastifyRequest): SessionRecord => {
      if (!request.clientSession) throw new Error('client route without its token hook');
      return request.clientSession;
    };

    authed.get('/session', routes.session, async (request) => service.answer(sessionOf(request)));

    authed.post<Body<typeof LangBodySchema>>('/lang', routes.lang, async (request) =>
      service.setLang(sessionOf(request), request.body.lang),
    );

    authed.get<NodeParams>('/nodes/:nodeId/prompt', routes.prompt, async (request) =>
      service.prompt(sessionOf(request), request.params.nodeId),
    );

    authed.post<NodeParams & Body<typeof ReplyBodySchema>>(
      '/nodes/:nodeId/reply',
      routes.reply,
      async (request) =>
        service.reply(sessionOf(request), request.params.nodeId, request.body.text),
    );

    authed.post<NodeParams & Body<typeof ResultBodySchema>>(
      '/nodes/:nodeId/result',
      routes.result,
      async (request) => {
        const { outcome, report } = request.body;
        return service.result(sessionOf(request), request.params.nodeId, outcome, report);
      },
    );

    authed.post<NodeParams & Body<typeof OtpSendBodySchema>>(
      '/nodes/:nodeId/otp/send',
      routes.otpSend,
      async (request) =>
        service.otpSend(sessionOf(request), request.params.nodeId, request.body.destination),
    );

    authed.post<NodeParams & Body<typeof OtpVerifyBodySchema>>(
      '/nodes/:nodeId/otp/verify',
      routes.otpVerify,
      async (request) =>
        service.otpVerify(sessionOf(request), request.params.nodeId, request.body.code),
    );

    authed.post('/exit', routes.exit, async (request) => service.exit(sessionOf(request)));

    await authed.register(async (scope) => livenessRoutes(scope, ctx));
    await authed.register(async (scope) => faceRoutes(scope, ctx));
    await authed.register(async (scope) => analysesRoutes(scope, ctx));
    await authed.register(async (scope) => documentRoutes(scope, ctx));
  });
}
