import type { FastifyInstance } from 'fastify';
import { CLIENT_SECRET_TTL_MS, LATEST_VERSION, responseFor } from '../../core/api';
import type { AppContext } from '../context';
import { scopeOf } from '../http/auth';
import { ApiError, invalid, notFound, validationDetails } from '../http/errors';
import { sendAs } from '../http/version';
import { clientSecret } from '../ids';
import { buildSession } from '../sessions/create';
import {
  idempotencyKeyOf,
  idempotentCreates,
  requestHash,
  type CreateAnswer,
  type PreparedCreate,
} from '../sessions/idempotency';
import { encodeCursor, parseListQuery } from '../sessions/list';
import {
  carriesSignedMedia,
  presentSecret,
  presentSession,
  type MediaUrlSigner,
} from '../sessions/present';
import { expireIfTimedOut } from '../sessions/timeouts';
import type { ClientSecretRecord } from '../store/types';
import { API_ROUTES as routes } from './apiSchemas';

const JSON_TYPE = 'application/json; charset=utf-8';
const sessionNotFound = () => notFound('Session not found');

type SessionParams = { Params: { sessionId: string } };

function freshSecret(sessionId: string, now: number): ClientSecretRecord {
  return {
    secret: clientSecret(sessionId),
    sessionId,
    createdAt: now,
    expireAt: now + CLIENT_SECRET_TTL_MS,
    usedAt: null,
    revokedAt: null,
  };
}

/**
 * `POST /sessions`, `GET /sessions`, `GET /sessions/:id`, `GET /sessions/:id/refresh`,
 * `POST /sessions/:id/erase`.
 *
 * @example
 * await api.register(async (scope) => sessionRoutes(scope, ctx));
 */
export function sessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Media ids in reports are shown as signed URLs once the app context carries a MediaService.
  const media = (ctx as AppContext & { media?: MediaUrlSigner }).media;
  const creates = idempotentCreates(ctx.store, ctx.clock);
  app.post('/sessions', routes.createSession, async (request, reply) => {
    const scope = scopeOf(request);
    // Checks and builds the session; stores nothing until `commit`.
    const prepare = async (): Promise<PreparedCreate> => {
      const now = ctx.clock.now();
      const { avatarIds, langIds } = await ctx.catalog.ids();
      const badFields = request.validationError;
      const built = buildSession(
        request.body,
        {
          scope,
          version: request.apiVersion,
          now,
          avatarIds,
          langIds,
          promptProblem: ctx.renderer.problemWith?.bind(ctx.renderer),
        },
        badFields ? validationDetails(badFields.validation, 'body') : [],
      );
      if (!built.ok) throw invalid(built.problems);
      const secret = freshSecret(built.session.id, now);
      const body = {
        session: await presentSession(built.session, media),
        clientSecret: presentSecret(secret, ctx.publicUrl),
      };
      // The written JSON, as the app's serializer writes it: a replay sends these very bytes.
      const json = JSON.stringify(
        request.apiVersion === LATEST_VERSION
          ? body
          : responseFor(request.apiVersion, 'sessions.create', body),
      );
      return {
        sessionId: built.session.id,
        answer: { status: 200, body: json },
        commit: () => ctx.store.createSession(built.session, secret),
      };
    };
    const key = idempotencyKeyOf(request.headers);
    let answer: CreateAnswer;
    if (key === null) {
      const prepared = await prepare();
      await prepared.commit();
      answer = prepared.answer;
    } else {
      const hash = requestHash(request.apiVersion, request.body);
      const r = await creates.run(scope, key, hash, prepare);
      if (r.replayed) reply.header('Idempotent-Replayed', 'true');
      answer = r;
    }
    // Only successes are stored, so a stored status is the route's 200.
    return reply
      .code(answer.status as 200)
      .type(JSON_TYPE)
      .send(answer.body);
  });

  app.get('/sessions', routes.listSessions, async (request, reply) => {
    const parsed = parseListQuery(
      request.query as Record<string, string | string[] | undefined>,
      request.apiVersion,
    );
    if (!parsed.ok) throw invalid(parsed.problems);
    const q = parsed.query;
    const page = await ctx.store.listSessions(scopeOf(request), q);
    return sendAs(request, reply, 'sessions.list', {
      sessions: await Promise.all(page.sessions.map((s) => presentSession(s, media))),
      nextCursor: page.hasMore ? encodeCursor(q.sortBy, q.sortOrder, page.next) : '',
      hasMore: page.hasMore,
      ...(page.totalCount !== undefined ? { totalCount: page.totalCount } : {}),
    });
  });

  // Integrators poll this route. The store hands back the same object while a session is
  // unchanged, so its latest-version JSON is kept with it and serialised once.
  const rendered = new WeakMap<object, { url: string; json: string }>();
  app.get<SessionParams>('/sessions/:sessionId', routes.getSession, async (request, reply) => {
    const found = await ctx.store.getSessionWithSecret(scopeOf(request), request.params.sessionId);
    if (!found) throw sessionNotFound();
    const { session, secret } = found;
    if (!secret) throw new Error(`session ${session.id} has no client secret`);
    const body = {
      session: await presentSession(session, media),
      clientSecret: presentSecret(secret, ctx.publicUrl),
    };
    // Signed media URLs are made per read and expire: such a body is never cached.
    if (request.apiVersion !== LATEST_VERSION || (media && carriesSignedMedia(session))) {
      return sendAs(request, reply, 'sessions.get', body);
    }
    let cached = rendered.get(found);
    if (!cached || cached.url !== ctx.publicUrl) {
      cached = { url: ctx.publicUrl, json: JSON.stringify(body) };
      rendered.set(found, cached);
    }
    return reply.type(JSON_TYPE).send(cached.json);
  });

  // Stripe-style action route (like Identity's `/redact`): idempotent, answers the tombstone.
  app.post<SessionParams>(
    '/sessions/:sessionId/erase',
    routes.eraseSession,
    async (request, reply) => {
      const r = await ctx.eraser.erase(scopeOf(request), request.params.sessionId);
      if (!r.ok) throw sessionNotFound();
      const found = await ctx.store.getSessionWithSecret(scopeOf(request), r.session.id);
      if (!found?.secret) throw new Error(`session ${r.session.id} has no client secret`);
      return sendAs(request, reply, 'sessions.get', {
        session: await presentSession(found.session, media),
        clientSecret: presentSecret(found.secret, ctx.publicUrl),
      });
    },
  );

  const refresh = routes.refreshClientSecret;
  app.get<SessionParams>('/sessions/:sessionId/refresh', refresh, async (request, reply) => {
    const now = ctx.clock.now();
    const secret = freshSecret(request.params.sessionId, now);
    // A session past its unopened or idle limit ends here, even before the sweeper reaches it.
    const result = await ctx.store.refreshClientSecret(
      scopeOf(request),
      request.params.sessionId,
      secret,
      (s) => expireIfTimedOut(s, now, ctx.timeouts),
    );
    if (result === 'not_found') throw sessionNotFound();
    if (result === 'finished') {
      throw new ApiError(
        'validation_error',
        'The session has ended (complete, incomplete or timed out); its client secret cannot be refreshed',
        { code: 'session_finished' },
      );
    }
    return sendAs(request, reply, 'sessions.refresh', presentSecret(secret, ctx.publicUrl));
  });
}
