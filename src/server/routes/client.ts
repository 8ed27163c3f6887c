import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ConsentBodySchema,
  ExchangeBodySchema,
  LangBodySchema,
  ResultBodySchema,
} from '../../core/api';
import { clientAccess } from '../client/access';
import { reportResult } from '../client/results';
import type { AppContext } from '../context';
import { badCredential, bearer } from '../http/auth';
import { ApiError } from '../http/errors';
import { clientRoute, nodeAnswer } from '../http/routeDocs';
import type { Body } from '../http/validation';
import { registerNodeRoutes, type ClientRequests } from '../nodes';
import { analysesRoutes } from '../session-analyses/routes';
import type { SessionRecord } from '../store/types';
import { CLIENT_ROUTES as routes } from './clientSchemas';
import { handoffRoutes, refuseMoved } from './handoff';

declare module 'fastify' {
  interface FastifyRequest {
    clientSession?: SessionRecord;
    /** The client token's session moved to a phone: it may watch, not act. */
    clientMoved?: boolean;
  }
}

type NodeParams = { Params: { nodeId: string } };

/**
 * The routes of docs/client-api.md under `/client`, for the hosted page: the secret exchange, the
 * session, its language, the page's results and the exit here; each node kind's own routes from
 * its server module (`src/server/nodes/`).
 *
 * @example
 * await app.register(async (scope) => clientRoutes(scope, ctx), { prefix: '/client' });
 */
export function clientRoutes(app: FastifyInstance, ctx: AppContext): void {
  const access = clientAccess(ctx);

  /** A refused secret or token counts against the address; a valid one is never held back. */
  const refuse = async (request: FastifyRequest, err: unknown): Promise<unknown> =>
    err instanceof ApiError && err.type === 'authentication_error'
      ? await badCredential(
          ctx.limiter,
          request.ip,
          ctx.limits.badKeyPerIp,
          err,
          'an invalid client secret or token',
        )
      : err;

  app.post<Body<typeof ExchangeBodySchema>>('/exchange', routes.exchange, async (request) => {
    try {
      return await access.exchange({
        clientSecret: request.body.clientSecret,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
    } catch (err) {
      throw await refuse(request, err);
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
        const { session, moved } = await access.tokenSession(token);
        request.clientSession = session;
        request.clientMoved = moved;
      } catch (err) {
        throw await refuse(request, err);
      }
      refuseMoved(request, request.clientMoved);
    });
    const sessionOf = (request: FastifyRequest): SessionRecord => {
      if (!request.clientSession) throw new Error('client route without its token hook');
      return request.clientSession;
    };

    authed.get('/session', routes.session, async (request) => ({
      ...(await access.answer(sessionOf(request))),
      ...(request.clientMoved ? { onPhone: true } : {}),
    }));

    authed.post<Body<typeof LangBodySchema>>('/lang', routes.lang, async (request) =>
      access.setLang(sessionOf(request), request.body.lang),
    );

    authed.post<NodeParams & Body<typeof ResultBodySchema>>(
      '/nodes/:nodeId/result',
      routes.result,
      async (request) => {
        const { outcome, report } = request.body;
        return reportResult(ctx, sessionOf(request), request.params.nodeId, outcome, report);
      },
    );

    authed.post('/exit', routes.exit, async (request) => access.exit(sessionOf(request)));

    handoffRoutes(app, authed, ctx, { access, sessionOf, refuse });

    authed.post<Body<typeof ConsentBodySchema>>('/consent', routes.consent, async (request) =>
      access.consent(sessionOf(request), request.body.choice, request.body.textVersion),
    );

    const client: ClientRequests = { session: sessionOf, route: clientRoute, nodeAnswer };
    await registerNodeRoutes(authed, ctx, client);
    await authed.register(async (scope) => analysesRoutes(scope, ctx));
  });
}
