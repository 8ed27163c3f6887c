/**
 * Which events an endpoint receives, and the JSON body sent for an outbox event.
 */
import {
  WEBHOOK_EVENT_TYPES,
  isWebhookEvent,
  type WebhookEvent,
  type WebhookMedia,
} from '../../sdk/event';

/** A row of the store's outbox, written in the same transaction as the change it reports. */
export interface OutboxEvent {
  id: string;
  accountId: string | null;
  mode: string | null;
  type: string;
  /** "" (or null in the row) for platform events. */
  sessionId: string | null;
  createdAt: number;
  /**
   * The JSON body to send, as the store wrote it. When it is not a valid event body for this
   * row, the body is rebuilt from the columns (and a `media` object found in it).
   */
  payload: string | null;
}

/**
 * Platform-level events (a `settings.*` event written with no account) go to every account's
 * endpoints, in both modes. A `settings.*` event written for one account stays in that account.
 *
 * @example
 * isPlatformEvent({ type: 'settings.avatars', accountId: '' }); // true
 */
export function isPlatformEvent(event: { type: string; accountId: string | null }): boolean {
  return event.type.startsWith('settings.') && !event.accountId;
}

const PREFIXES = new Set(WEBHOOK_EVENT_TYPES.map((t) => t.split('.')[0]!));

/**
 * Parses `--events a,b,c` into a subscription: null means every event (also for "*"). Accepts the
 * event types of the spec and group wildcards such as `media.*`; reports every unknown one.
 *
 * @example
 * parseEventTypes('session.status, media.*'); // { types: ['session.status', 'media.*'], problems: [] }
 */
export function parseEventTypes(value: string | undefined): {
  types: string[] | null;
  problems: string[];
} {
  if (value === undefined) return { types: null, problems: [] };
  const items = [...new Set(value.split(',').map((s) => s.trim()))].filter((s) => s !== '');
  if (items.length === 0) return { types: null, problems: ['--events lists no event type'] };
  if (items.includes('*')) return { types: null, problems: [] };
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  const problems = items
    .filter((t) => !known.has(t) && !(t.endsWith('.*') && PREFIXES.has(t.slice(0, -2))))
    .map(
      (t) =>
        `unknown event type ${JSON.stringify(t)}; known: ${WEBHOOK_EVENT_TYPES.join(', ')} ` +
        `(or a group such as media.*, or * for all)`,
    );
  return { types: items, problems };
}

/**
 * Whether a subscription (null = all) includes an event type.
 *
 * @example
 * subscribes(['media.*'], 'media.user_photo'); // true
 */
export function subscribes(types: readonly string[] | null, type: string): boolean {
  if (types === null) return true;
  return types.some((t) => t === type || (t.endsWith('.*') && type.startsWith(t.slice(0, -1))));
}

function mediaOf(payload: string | null): WebhookMedia | undefined {
  if (!payload) return undefined;
  try {
    const parsed = JSON.parse(payload) as { media?: unknown };
    const media = parsed?.media;
    return media && typeof media === 'object' ? (media as WebhookMedia) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The body POSTed for an event: `{ id, type, createdAt, sessionId, media? }`. The new status of a
 * `session.status` event is deliberately absent (the receiver reads the session).
 *
 * @example
 * webhookBody({ id: 'evt_1', type: 'settings.langs', sessionId: null, createdAt: 5, … });
 * // { id: 'evt_1', type: 'settings.langs', createdAt: 5, sessionId: '' }
 */
export function webhookBody(event: OutboxEvent): WebhookEvent {
  const media = event.type.startsWith('media.') ? mediaOf(event.payload) : undefined;
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    sessionId: event.type.startsWith('settings.') ? '' : (event.sessionId ?? ''),
    ...(media ? { media } : {}),
  };
}

/**
 * The exact bytes POSTed for an event: the stored payload itself when it is this event's body
 * (so what the store wrote is what is signed and sent), else the body rebuilt by webhookBody.
 *
 * @example
 * webhookBodyBytes(event).toString(); // '{"id":"evt_1","type":"session.status",…}'
 */
export function webhookBodyBytes(event: OutboxEvent): Buffer {
  if (event.payload) {
    try {
      const parsed: unknown = JSON.parse(event.payload);
      if (isWebhookEvent(parsed) && parsed.id === event.id && parsed.type === event.type) {
        return Buffer.from(event.payload, 'utf8');
      }
    } catch {
      // Not JSON: rebuilt below.
    }
  }
  return Buffer.from(JSON.stringify(webhookBody(event)), 'utf8');
}
