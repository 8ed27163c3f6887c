/**
 * The webhook tables' rows as both stores read them (SQLite's `rowid` is PostgreSQL's `seq`), and
 * the rule that sends an event to an endpoint.
 */
import { isPlatformEvent, subscribes, type OutboxEvent } from './event-types';
import type { SigningSecret } from './secrets';
import type { DeliveryStatus, DeliveryView, Mode, WebhookEndpoint } from './store';

export interface EndpointRow {
  id: string;
  account_id: string;
  mode: Mode;
  url: string;
  event_types: string | null;
  secrets: string;
  created_at: number;
  from_event_rowid: number;
}

export interface EventRow {
  rowid: number;
  id: string;
  account_id: string | null;
  mode: string | null;
  type: string;
  session_id: string | null;
  created_at: number;
  payload: string | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  mode: r.mode,
  url: r.url,
  eventTypes: r.event_types === null ? null : (JSON.parse(r.event_types) as string[]),
  secrets: JSON.parse(r.secrets) as SigningSecret[],
  createdAt: r.created_at,
});

export const toOutbox = (r: EventRow): OutboxEvent => ({
  id: r.id,
  accountId: r.account_id,
  mode: r.mode,
  type: r.type,
  sessionId: r.session_id,
  createdAt: r.created_at,
  payload: r.payload,
});

export const toDelivery = (r: DeliveryRow): DeliveryView => ({
  id: r.id,
  eventId: r.event_id,
  endpointId: r.endpoint_id,
  url: r.url,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastAttemptAt: r.last_attempt_at,
  lastStatusCode: r.last_status_code,
  lastError: r.last_error,
});

/**
 * Whether an event goes to an endpoint: written after it was registered, same account and mode
 * (any, for platform events), subscribed.
 *
 * @example
 * matches(endpoint, null, event); // true for an event of its account and mode written after it
 */
export function matches(endpoint: EndpointRow, types: string[] | null, event: EventRow): boolean {
  if (event.rowid <= endpoint.from_event_rowid) return false;
  if (!isPlatformEvent({ type: event.type, accountId: event.account_id })) {
    if (endpoint.account_id !== event.account_id || endpoint.mode !== event.mode) return false;
  }
  return subscribes(types, event.type);
}
