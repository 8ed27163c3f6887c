import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { sendAs } from '../http/version';
import { absoluteUrl } from '../sessions/present';
import { API_ROUTES as routes } from './apiSchemas';

/**
 * `GET /avatars` and `GET /langs`, wrapped (decisions.md), avatars with `createdAt`.
 *
 * @example
 * catalogRoutes(api, ctx);
 */
export function catalogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/avatars', routes.listAvatars, async (request, reply) => {
    const avatars = await ctx.store.listAvatars();
    return sendAs(request, reply, 'avatars.list', {
      avatars: avatars.map((a) => ({
        id: a.id,
        name: a.name,
        gender: a.gender,
        imageUrl: absoluteUrl(ctx.publicUrl, a.imageUrl),
        createdAt: a.createdAt,
      })),
    });
  });

  app.get('/langs', routes.listLangs, async (request, reply) => {
    const langs = await ctx.store.listLangs();
    return sendAs(request, reply, 'langs.list', { langs });
  });
}
