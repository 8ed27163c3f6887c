/**
 * The receiver for Express (and for a bare `node:http` server, whose request and response Express
 * extends). Express itself is not imported: the shapes below are all that is used.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { createWebhookHandler, type WebhookHandlerOptions } from './handler';

/** The parts of an Express / node:http request the handler reads. */
export interface NodeLikeRequest extends AsyncIterable<unknown> {
  headers: IncomingHttpHeaders;
  body?: unknown;
  readableEnded?: boolean;
}

/** The parts of an Express / node:http response the handler writes. */
export interface NodeLikeResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk: string): unknown;
}

/** Events are small; a larger body is not one of ours. */
const MAX_BODY_BYTES = 1024 * 1024;

class RawBodyError extends Error {}

async function readRawBody(req: NodeLikeRequest): Promise<Buffer | string> {
  const body = req.body;
  if (Buffer.isBuffer(body) || typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body !== undefined && body !== null && !(typeof body === 'object' && isEmpty(body))) {
    throw new RawBodyError(
      'The body was already parsed (express.json?): mount express.raw({ type: "application/json" }) ' +
        'on the webhook route so the signature can be checked over the exact bytes',
    );
  }
  if (req.readableEnded) {
    throw new RawBodyError('The request body was consumed before the webhook handler ran');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new RawBodyError('Body too large for a webhook event');
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function isEmpty(o: object): boolean {
  return Object.keys(o).length === 0;
}

/**
 * A request handler for Express or `http.createServer`. With Express, mount
 * `express.raw({ type: 'application/json' })` on the route (or no body parser at all: the handler
 * then reads the stream itself). A body that `express.json()` already parsed cannot be verified
 * and is answered 500 with a message saying so (500, so the service retries once you fix it).
 *
 * @example
 * app.post('/webhooks', express.raw({ type: 'application/json' }),
 *   expressWebhookHandler({ secret: process.env.WEBHOOK_SECRET!, onEvent: handle }));
 */
export function expressWebhookHandler(
  opts: WebhookHandlerOptions,
): (req: NodeLikeRequest, res: NodeLikeResponse, next?: (err?: unknown) => void) => Promise<void> {
  const handle = createWebhookHandler(opts);
  return async (req, res, next) => {
    try {
      let result;
      try {
        result = await handle({ rawBody: await readRawBody(req), headers: req.headers });
      } catch (err) {
        if (!(err instanceof RawBodyError)) throw err;
        result = {
          status: 500,
          body: { error: { type: 'api_error', message: err.message } },
        } as const;
      }
      res.statusCode = result.status;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(result.body));
    } catch (err) {
      if (next) next(err);
      else throw err;
    }
  };
}
