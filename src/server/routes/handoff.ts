import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  HandoffClaimBodySchema,
  HandoffOfferSchema,
  HandoffStatusSchema,
  PositionSchema,
  PublicSessionSchema,
} from '../../core/api';
import { Type } from '@sinclair/typebox';
import type { ClientAccess } from '../client/access';
import { clientHandoffs } from '../client/handoff';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { clientRoute } from '../http/routeDocs';
import type { Body } from '../http/validation';
import type { SessionRecord } from '../store/types';

export const HANDOFF_ROUTES = {
  claim: clientRoute(
    'Continue on a phone: spend a hand-off link once for a client token of the phone',
    HandoffClaimBodySchema,
    Type.Object({ token: Type.String(), session: PublicSessionSchema, position: PositionSchema }),
    // The code in the body is the credential.
    { security: [] },
  ),
  offer: clientRoute('Continue on a phone: a new single-use link', null, HandoffOfferSchema),
  status: clientRoute(
    'Continue on a phone: the link and where the session is',
    null,
    HandoffStatusSchema,
  ),
};

/** The routes a token whose session moved to a phone may still call: watching, not acting. */
export const WATCH_ROUTES: ReadonlySet<string> = new Set([
  'GET /client/session',
  'GET /client/handoff',
]);

/**
 * Refuses a request of a token whose session moved to a phone, unless it only watches.
 *
 * @example
 * refuseMoved(request, true); // throws session_on_phone for POST /client/nodes/…/result
 */
export function refuseMoved(request: FastifyRequest, moved: boolean): void {
  if (!moved || WATCH_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return;
  throw new ApiError(
    'validation_error',
    'This verification has moved to a phone; continue it there',
    { code: 'session_on_phone' },
  );
}

/**
 * The hand-off routes (docs/client-api.md, "Continue on a phone"): the phone's claim, with the
 * code as its credential, on `open`; the offer and its status, for a client token, on `authed`.
 *
 * @example
 * handoffRoutes(app, authed, ctx, access, sessionOf, refuse);
 */
export function handoffRoutes(
  open: FastifyInstance,
  authed: FastifyInstance,
  ctx: AppContext,
  deps: {
    access: ClientAccess;
    sessionOf: (request: FastifyRequest) => SessionRecord;
    refuse: (request: FastifyRequest, err: unknown) => Promise<unknown>;
  },
): void {
  const handoffs = clientHandoffs({ ...ctx, access: deps.access });

  open.post<Body<typeof HandoffClaimBodySchema>>(
    '/handoff/claim',
    HANDOFF_ROUTES.claim,
    async (request) => {
      try {
        return await handoffs.claim(request.body.code);
      } catch (err) {
        throw await deps.refuse(request, err);
      }
    },
  );
  authed.post('/handoff', HANDOFF_ROUTES.offer, async (request) =>
    handoffs.offer(deps.sessionOf(request)),
  );
  authed.get('/handoff', HANDOFF_ROUTES.status, async (request) =>
    handoffs.status(deps.sessionOf(request)),
  );
}
