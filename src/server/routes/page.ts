import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic, { type SetHeadersResponse } from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { safeEmbedOrigins } from '../sessions/embedOrigins';
import type { Mode } from '../store/types';

/**
 * The page's Content-Security-Policy: everything from this origin only (MediaPipe's wasm needs
 * `wasm-unsafe-eval`, camera frames `blob:`), and `frame-ancestors` from the session's
 * `embedOrigins` so only the integrator's pages may embed it. Only entries that pass today's
 * origin rule go in: a session stored by an older, laxer version cannot widen or break the policy.
 *
 * @example
 * pageCsp(['https://shop.example'], 'live'); // "default-src 'self'; … frame-ancestors 'self' https://shop.example"
 */
export function pageCsp(embedOrigins: readonly string[], mode: Mode): string {
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
    `frame-ancestors ${["'self'", ...safeEmbedOrigins(embedOrigins, mode)].join(' ')}`,
  ].join('; ');
}

/**
 * Every header a response carrying the page's HTML gets, whichever route served it.
 *
 * @example
 * reply.headers(pageHeaders(['https://shop.example'], 'live'));
 */
export function pageHeaders(embedOrigins: readonly string[], mode: Mode): Record<string, string> {
  return {
    'Content-Security-Policy': pageCsp(embedOrigins, mode),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    'Permissions-Policy': 'camera=(self), microphone=(self)',
  };
}

/** Source maps stay on disk for whoever reads a stack trace; they are never served. */
const notSourceMap = (pathname: string) => !pathname.toLowerCase().endsWith('.map');

/** Files a browser would render as a document of our origin. */
const DOCUMENT = /\.(?:html?|xhtml)$/i;

/**
 * Headers of a file the static handler serves. It gets the raw response before `send` adds its
 * own, so Cache-Control is ours only because the plugin is told not to set one.
 */
function staticHeaders(res: SetHeadersResponse, path: string): void {
  if (DOCUMENT.test(path)) {
    // HTML reached by its file name (a stray copy, `//index.html`…): no session is known, so
    // only our own origin may frame it. For `/verify` and `/` the route's headers (with the
    // session's embedders) are the reply's own, written over these raw ones.
    for (const [name, value] of Object.entries(pageHeaders([], 'live'))) res.setHeader(name, value);
    return;
  }
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader(
    'Cache-Control',
    path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
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
      cacheControl: false,
      setHeaders: (res) => {
        res.setHeader('Cache-Control', 'public, max-age=86400');
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        res.setHeader('X-Content-Type-Options', 'nosniff');
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
    // `send` would set `Cache-Control: public, max-age=0` over ours (and over /verify's no-store).
    cacheControl: false,
    allowedPath: notSourceMap,
    setHeaders: staticHeaders,
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
    reply.headers(pageHeaders(session?.settings.embedOrigins ?? [], session?.mode ?? 'live'));
    return reply.sendFile('index.html');
  };
  app.get('/verify', sendPage);
  app.get('/', sendPage);
  // The short link a phone opens to continue a session (docs/client-api.md, "Continue on a
  // phone"): the page reads the code from the address, and spends it only when it starts.
  app.get<{ Params: { code: string } }>('/p/:code', async (request, reply) => {
    reply.headers({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    return reply.redirect(`/verify?handoff=${encodeURIComponent(request.params.code)}`, 302);
  });
  // The page's file by name would be the page without its session's embedders: send it to the
  // route that knows them, query (the client secret) and all.
  app.get('/index.html', async (request, reply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(`/verify${query === -1 ? '' : request.url.slice(query)}`, 308);
  });
}
