/**
 * A framework-neutral webhook receiver: verify, parse, de-duplicate, hand the event over, answer.
 * The Express and Fastify adapters (express.ts, fastify.ts) only move bytes in and out of it.
 */
import { createMemoryDeduplicationStore, type DeduplicationStore } from './dedupe';
import { isWebhookEvent, type WebhookEvent } from './event';
import { SIGNATURE_HEADER, verifyWebhookSignature, type RawBody } from './signature';

export interface WebhookHandlerOptions {
  /** The endpoint's signing secret (`idv webhooks add` printed it). */
  secret?: string;
  /** Several secrets, when you accept an old and a new one during your own rotation. */
  secrets?: readonly string[];
  /** Allowed clock distance of the signature timestamp. Default 5 minutes. */
  toleranceMs?: number;
  /** Clock in unix ms, for tests. */
  now?: () => number;
  /**
   * Remembers processed event ids. Default: an in-memory store (per process, lost on restart);
   * `false` turns de-duplication off.
   */
  dedupe?: DeduplicationStore | false;
  /** Your processing. Throwing answers 500, so the service delivers the event again later. */
  onEvent: (event: WebhookEvent) => unknown;
}

/** What the receiver answers: a status and a small JSON body. */
export interface WebhookResponse {
  status: number;
  body:
    | { received: true; duplicate?: true }
    | { error: { type: string; message: string; code?: string } };
}

export interface WebhookRequest {
  /** The exact bytes received. */
  rawBody: RawBody | undefined | null;
  /** Request headers; names are matched without regard to case. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

function headerValue(
  headers: WebhookRequest['headers'],
  name: string,
): string | readonly string[] | undefined {
  const lower = name.toLowerCase();
  if (headers[lower] !== undefined) return headers[lower];
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const fail = (status: number, type: string, message: string, code?: string): WebhookResponse => ({
  status,
  body: { error: { type, message, ...(code ? { code } : {}) } },
});

/**
 * Builds a receiver function: 401 for a bad signature, 400 for a body that is not an event, 200
 * (with `duplicate: true`) for an id already processed, 500 when `onEvent` throws, else 200.
 * Two copies of one event arriving together run `onEvent` once and get the same answer.
 *
 * @example
 * const receive = createWebhookHandler({ secret, onEvent: (e) => queue.push(e) });
 * const { status, body } = await receive({ rawBody, headers: req.headers });
 */
export function createWebhookHandler(
  opts: WebhookHandlerOptions,
): (req: WebhookRequest) => Promise<WebhookResponse> {
  const dedupe = opts.dedupe === false ? null : (opts.dedupe ?? createMemoryDeduplicationStore());
  const inFlight = new Map<string, Promise<WebhookResponse>>();
  const now = opts.now ?? Date.now;

  const processEvent = async (event: WebhookEvent): Promise<WebhookResponse> => {
    if (dedupe && (await dedupe.has(event.id))) {
      return { status: 200, body: { received: true, duplicate: true } };
    }
    try {
      await opts.onEvent(event);
    } catch {
      // The detail stays with the receiver; the service only needs to know to try again.
      return fail(500, 'api_error', 'The event could not be processed');
    }
    if (dedupe) await dedupe.add(event.id);
    return { status: 200, body: { received: true } };
  };

  return async (req) => {
    if (req.rawBody === undefined || req.rawBody === null) {
      return fail(500, 'api_error', 'The raw request body is not available to the handler');
    }
    const verified = verifyWebhookSignature({
      rawBody: req.rawBody,
      header: headerValue(req.headers, SIGNATURE_HEADER),
      ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
      ...(opts.secrets !== undefined ? { secrets: opts.secrets } : {}),
      ...(opts.toleranceMs !== undefined ? { toleranceMs: opts.toleranceMs } : {}),
      now: now(),
    });
    if (!verified.ok) {
      return fail(401, 'authentication_error', verified.message, verified.reason);
    }
    let parsed: unknown;
    try {
      const text =
        typeof req.rawBody === 'string' ? req.rawBody : Buffer.from(req.rawBody).toString('utf8');
      parsed = JSON.parse(text);
    } catch {
      return fail(400, 'validation_error', 'The body is not JSON');
    }
    if (!isWebhookEvent(parsed)) {
      return fail(400, 'validation_error', 'The body is not a webhook event');
    }
    const pending = inFlight.get(parsed.id);
    if (pending) {
      const first = await pending;
      return first.status === 200
        ? { status: 200, body: { received: true, duplicate: true } }
        : first;
    }
    const run = processEvent(parsed).finally(() => inFlight.delete(parsed.id));
    inFlight.set(parsed.id, run);
    return run;
  };
}
