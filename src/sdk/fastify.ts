/**
 * The receiver for Fastify. Fastify parses JSON bodies by default, which loses the exact bytes the
 * signature covers, so the plugin below registers a buffer parser inside its own encapsulated scope:
 * the rest of your app keeps its normal JSON parsing. Fastify itself is not imported.
 */
import { createWebhookHandler, type WebhookHandlerOptions } from './handler';

/** The parts of a Fastify request the handler reads. */
export interface FastifyLikeRequest {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** The parts of a Fastify reply the handler writes. */
export interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  send(body: unknown): unknown;
}

/** The parts of a Fastify instance the plugin uses. */
export interface FastifyLikeInstance {
  addContentTypeParser(
    type: string,
    opts: { parseAs: 'buffer' },
    parser: (req: unknown, body: Buffer, done: (err: Error | null, body?: unknown) => void) => void,
  ): unknown;
  // `never`: Fastify's own handler type is wider than ours; any of its overloads accepts ours.
  post(path: string, handler: never): unknown;
}

/**
 * A Fastify route handler. `request.body` must be the raw Buffer: use `fastifyWebhookPlugin`, or
 * register `addContentTypeParser('application/json', { parseAs: 'buffer' }, …)` yourself.
 *
 * @example
 * scope.post('/webhooks', fastifyWebhookHandler({ secret, onEvent: handle }));
 */
export function fastifyWebhookHandler(
  opts: WebhookHandlerOptions,
): (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown> {
  const handle = createWebhookHandler(opts);
  return async (request, reply) => {
    const body = request.body;
    const raw = Buffer.isBuffer(body) || typeof body === 'string' ? body : undefined;
    const result = raw
      ? await handle({ rawBody: raw, headers: request.headers })
      : {
          status: 500,
          body: {
            error: {
              type: 'api_error',
              message:
                'The body was parsed before the webhook handler: register the route with ' +
                'fastifyWebhookPlugin so it receives the raw bytes',
            },
          },
        };
    return reply.code(result.status).send(result.body);
  };
}

/**
 * A Fastify plugin that adds `POST <path>` receiving webhook events over their raw bytes.
 *
 * @example
 * await app.register(fastifyWebhookPlugin({ path: '/webhooks', secret, onEvent: handle }));
 */
export function fastifyWebhookPlugin(
  opts: WebhookHandlerOptions & { path: string },
): (instance: FastifyLikeInstance) => Promise<void> {
  const handler = fastifyWebhookHandler(opts);
  return async (instance) => {
    instance.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    instance.post(opts.path, handler as never);
  };
}
