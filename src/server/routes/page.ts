import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';

/**
 * The page's Content-Security-Policy: everything from this origin only (MediaPipe's wasm needs
 * `wasm-unsafe-eval`, camera frames `blob:`), and `frame-ancestors` from the session's
 * `embedOrigins` so only the integrator's pages may embed it.
 *
 * @example
 * pageCsp(['https://shop.example']); // "default-src 'self'; … frame-ancestors 'self' https://shop.example"
 */
export function pageCsp(embedOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: mediastream:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${["'self'", ...embedOrigins].join(' ')}`,
  ].join('; ');
}

/**
 * Serves the built page (`/verify`, `/`, its assets) and the avatar images on the API's origin.
 *
 * @example
 * await pageRoutes(app, ctx, { webDir: 'dist/web', publicDir: 'public' });
 */
export async function pageRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  dirs: { webDir: string | null; publicDir: string | null },
): Promise<void> {
  const avatarsDir = dirs.publicDir ? join(dirs.publicDir, 'avatars') : null;
  if (avatarsDir && existsSync(avatarsDir)) {
    await app.register(fastifyStatic, {
      root: avatarsDir,
      prefix: '/avatars/',
      decorateReply: false,
      index: false,
      setHeaders: (res) => {
        res.setHeader('Cache-Control', 'public, max-age=86400');
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      },
    });
  }

  const webDir = dirs.webDir;
  if (!webDir || !existsSync(join(webDir, 'index.html'))) return;

  await app.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    index: false,
    wildcard: true,
    setHeaders: (res, path) => {
      if (path.includes('/assets/'))
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });

  const sendPage = async (
    request: FastifyRequest<{ Querystring: { client_secret?: string; session?: string } }>,
    reply: FastifyReply,
  ) => {
    // The embedders that may frame the page: from the secret of a fresh link, or from the session
    // id the page puts in its address once the secret is spent (a reload inside an iframe). An id
    // is no credential: it only tells which origins the integrator allowed.
    const { client_secret: secret, session: sessionId } = request.query;
    const session =
      typeof secret === 'string' && secret.startsWith('cs_')
        ? await ctx.store.getSessionBySecret(secret)
        : typeof sessionId === 'string' && sessionId.startsWith('sess_')
          ? await ctx.store.getSessionById(sessionId)
          : null;
    const origins = session?.settings.embedOrigins ?? [];
    reply
      .header('Content-Security-Policy', pageCsp(origins))
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-store')
      .header('Permissions-Policy', 'camera=(self), microphone=(self)');
    return reply.sendFile('index.html');
  };
  app.get('/verify', sendPage);
  app.get('/', sendPage);
}
