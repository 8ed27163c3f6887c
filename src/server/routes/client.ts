import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ExchangeBodySchema,
  LangBodySchema,
  OtpSendBodySchema,
  OtpVerifyBodySchema,
  ReplyBodySchema,
  ResultBodySchema,
} from '../../core/api';
import type { TSchema, Static } from '@sinclair/typebox';
import { ClientService } from '../client/service';
import type { AppContext } from '../context';
import { badCredential, bearer } from '../http/auth';
import { ApiError, invalid } from '../http/errors';
import { analysesRoutes } from '../session-analyses/routes';
import { documentRoutes } from '../documents';
import { faceRoutes } from '../faces/routes';
import { livenessRoutes } from '../liveness/routes';
import { compileCheck } from '../sessions/problems';
import type { SessionRecord } from '../store/types';

declare module 'fastify' {
  interface FastifyRequest {
    clientSession?: SessionRecord;
  }
}

function bodyOf<S extends TSchema>(
  check: (v: unknown) => { path: string; message: string }[],
  body: unknown,
): Static<S> {
  const value = body ?? {};
  const problems = check(value);
  if (problems.length) throw invalid(problems);
  return value as Static<S>;
}

const checks = {
  exchange: compileCheck(ExchangeBodySchema),
  lang: compileCheck(LangBodySchema),
  reply: compileCheck(ReplyBodySchema),
  result: compileCheck(ResultBodySchema),
  otpSend: compileCheck(OtpSendBodySchema),
  otpVerify: compileCheck(OtpVerifyBodySchema),
};

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

  app.post('/exchange', async (request) => {
    const body = bodyOf<typeof ExchangeBodySchema>(checks.exchange, request.body);
    try {
      return await service.exchange({
        clientSecret: body.clientSecret,
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

    authed.get('/session', async (request) => service.answer(sessionOf(request)));

    authed.post('/lang', async (request) => {
      const body = bodyOf<typeof LangBodySchema>(checks.lang, request.body);
      return service.setLang(sessionOf(request), body.lang);
    });

    authed.get<NodeParams>('/nodes/:nodeId/prompt', async (request) =>
      service.prompt(sessionOf(request), request.params.nodeId),
    );

    authed.post<NodeParams>('/nodes/:nodeId/reply', async (request) => {
      const body = bodyOf<typeof ReplyBodySchema>(checks.reply, request.body);
      return service.reply(sessionOf(request), request.params.nodeId, body.text);
    });

    authed.post<NodeParams>('/nodes/:nodeId/result', async (request) => {
      const body = bodyOf<typeof ResultBodySchema>(checks.result, request.body);
      return service.result(sessionOf(request), request.params.nodeId, body.outcome, body.report);
    });

    authed.post<NodeParams>('/nodes/:nodeId/otp/send', async (request) => {
      const body = bodyOf<typeof OtpSendBodySchema>(checks.otpSend, request.body);
      return service.otpSend(sessionOf(request), request.params.nodeId, body.destination);
    });

    authed.post<NodeParams>('/nodes/:nodeId/otp/verify', async (request) => {
      const body = bodyOf<typeof OtpVerifyBodySchema>(checks.otpVerify, request.body);
      return service.otpVerify(sessionOf(request), request.params.nodeId, body.code);
    });

    authed.post('/exit', async (request) => service.exit(sessionOf(request)));

    await authed.register(async (scope) => livenessRoutes(scope, ctx));
    await authed.register(async (scope) => faceRoutes(scope, ctx));
    await authed.register(async (scope) => analysesRoutes(scope, ctx));
    await authed.register(async (scope) => documentRoutes(scope, ctx));
  });
}
