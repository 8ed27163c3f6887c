import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ExchangeBodySchema, LangBodySchema, ResultBodySchema } from '../../core/api';
import type { TSchema, Static } from '@sinclair/typebox';
import { clientAccess } from '../client/access';
import { reportResult } from '../client/results';
import type { AppContext } from '../context';
import { badCredential, bearer } from '../http/auth';
import { ApiError, invalid } from '../http/errors';
import { registerNodeRoutes, type ClientRequests } from '../nodes';
import { analysesRoutes } from '../session-analyses/routes';
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
  result: compileCheck(ResultBodySchema),
};

/** The node kinds' routes check their bodies with the schemas they name (compiled once each). */
const kindChecks = new Map<TSchema, (v: unknown) => { path: string; message: string }[]>();
function kindBody<S extends TSchema>(schema: S, body: unknown): Static<S> {
  let check = kindChecks.get(schema);
  if (!check) kindChecks.set(schema, (check = compileCheck(schema)));
  return bodyOf<S>(check, body);
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
      return await access.exchange({
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
        request.clientSession = await access.sessionOf(token);
      } catch (err) {
        throw refuse(request, err);
      }
    });
    const sessionOf = (request: FastifyRequest): SessionRecord => {
      if (!request.clientSession) throw new Error('client route without its token hook');
      return request.clientSession;
    };

    authed.get('/session', async (request) => access.answer(sessionOf(request)));

    authed.post('/lang', async (request) => {
      const body = bodyOf<typeof LangBodySchema>(checks.lang, request.body);
      return access.setLang(sessionOf(request), body.lang);
    });

    authed.post<NodeParams>('/nodes/:nodeId/result', async (request) => {
      const body = bodyOf<typeof ResultBodySchema>(checks.result, request.body);
      return reportResult(
        ctx,
        sessionOf(request),
        request.params.nodeId,
        body.outcome,
        body.report,
      );
    });

    authed.post('/exit', async (request) => access.exit(sessionOf(request)));

    const client: ClientRequests = {
      session: sessionOf,
      body: (schema, request) => kindBody(schema, request.body),
    };
    await registerNodeRoutes(authed, ctx, client);
    await authed.register(async (scope) => analysesRoutes(scope, ctx));
  });
}
