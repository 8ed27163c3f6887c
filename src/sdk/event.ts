/**
 * The webhook event body: the one schema both the service (which sends it) and receivers (which
 * check it) use. TypeBox gives the TypeScript type and the runtime check from the same source.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Every event type the service sends. `session.completed` (an older example) is never sent. */
export const WEBHOOK_EVENT_TYPES = [
  'session.status',
  'session.erased',
  'media.user_photo',
  'media.document_photo',
  'media.user_video',
  'analysis.video',
  'analysis.deepfake',
  'analysis.screenshot',
  'settings.avatars',
  'settings.langs',
] as const;

export const WebhookEventTypeSchema = Type.Union(
  WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'Event type.' },
);
export type WebhookEventType = Static<typeof WebhookEventTypeSchema>;

export const WebhookMediaSchema = Type.Object(
  {
    id: Type.String({ description: 'Media id.' }),
    createdAt: Type.Integer({ description: 'Unix ms when generated.' }),
    url: Type.String({ description: 'Signed download URL.' }),
    expires: Type.Integer({ description: 'Unix ms when the URL expires (15 minutes).' }),
    contentType: Type.String({ description: 'MIME type, e.g. image/jpeg.' }),
  },
  { additionalProperties: true },
);
export type WebhookMedia = Static<typeof WebhookMediaSchema>;

export const WebhookEventSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Unique event id: de-duplicate by it.' }),
    // A plain string, not the union: a receiver built today must accept a type added tomorrow.
    type: Type.String({ minLength: 1, description: 'Event type, e.g. session.status.' }),
    createdAt: Type.Integer({ description: 'Unix milliseconds.' }),
    sessionId: Type.String({ description: 'Session id; "" on settings.* events.' }),
    media: Type.Optional(WebhookMediaSchema),
  },
  { additionalProperties: true, $id: 'WebhookEvent' },
);
export type WebhookEvent = Static<typeof WebhookEventSchema>;

/**
 * Whether a parsed JSON value has the shape of a webhook event.
 *
 * @example
 * isWebhookEvent({ id: 'evt_1', type: 'session.status', createdAt: 1, sessionId: 's' }); // true
 */
export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return Value.Check(WebhookEventSchema, value);
}
