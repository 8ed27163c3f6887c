/**
 * The outbox rows of `media.*` events: the exact webhook body, signed URL included.
 */
import type { WebhookEvent } from '../../sdk/event';
import type { EventRecord } from '../store/types';
import type { MediaKind, MediaRecord, SignedMediaUrl } from './types';

/** The kinds that have an event of their own; screenshots and frames are read from the report. */
const EVENT_TYPES: Partial<Record<MediaKind, string>> = {
  user_photo: 'media.user_photo',
  document_photo: 'media.document_photo',
  user_video: 'media.user_video',
};

/**
 * The event type announcing a media record, or null when its kind has none.
 *
 * @example
 * mediaEventType('user_photo'); // 'media.user_photo'
 * mediaEventType('frame'); // null
 */
export function mediaEventType(kind: MediaKind): string | null {
  return EVENT_TYPES[kind] ?? null;
}

/**
 * The JSON body of a `media.*` webhook event (spec: `{ id, type, createdAt, sessionId, media:
 * { id, createdAt, url, expires, contentType } }`), to store as an outbox row's payload.
 *
 * @example
 * mediaEventPayload(record, media.signedUrl(record.id), orderedId('evt', 8), Date.now());
 * // '{"id":"evt_…","type":"media.user_photo","createdAt":…,"sessionId":"sess_…","media":{…}}'
 */
export function mediaEventPayload(
  record: MediaRecord,
  signed: SignedMediaUrl,
  eventId: string,
  now: number,
): string {
  const type = mediaEventType(record.kind);
  if (!type) throw new Error(`media of kind ${record.kind} has no event`);
  const body: WebhookEvent = {
    id: eventId,
    type,
    createdAt: now,
    sessionId: record.sessionId,
    media: {
      id: record.id,
      createdAt: record.createdAt,
      url: signed.url,
      expires: signed.expires,
      contentType: record.contentType,
    },
  };
  return JSON.stringify(body);
}

/**
 * The whole outbox row for `store.appendEvent`.
 *
 * @example
 * await store.appendEvent(mediaEvent(record, media.signedUrl(record.id), orderedId('evt', 8), now));
 */
export function mediaEvent(
  record: MediaRecord,
  signed: SignedMediaUrl,
  eventId: string,
  now: number,
): EventRecord {
  const payload = mediaEventPayload(record, signed, eventId, now);
  return {
    id: eventId,
    accountId: record.accountId,
    mode: record.mode,
    type: mediaEventType(record.kind) as string,
    sessionId: record.sessionId,
    createdAt: now,
    payload,
  };
}
