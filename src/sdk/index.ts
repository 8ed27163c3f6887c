/**
 * The receiver SDK for the service's webhooks. It stands alone: nothing of the service is imported,
 * so it can be copied or published as its own package.
 */
export {
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_MS,
  computeSignature,
  signWebhookPayload,
  parseSignatureHeader,
  verifyWebhookSignature,
  type RawBody,
  type ParsedSignatureHeader,
  type VerifyOptions,
  type VerifyResult,
  type VerifyFailure,
} from './signature';
export {
  WEBHOOK_EVENT_TYPES,
  WebhookEventSchema,
  WebhookEventTypeSchema,
  WebhookMediaSchema,
  isWebhookEvent,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookMedia,
} from './event';
export {
  createMemoryDeduplicationStore,
  type DeduplicationStore,
  type MemoryDeduplicationOptions,
} from './dedupe';
export {
  createWebhookHandler,
  type WebhookHandlerOptions,
  type WebhookRequest,
  type WebhookResponse,
} from './handler';
export { expressWebhookHandler, type NodeLikeRequest, type NodeLikeResponse } from './express';
export {
  fastifyWebhookHandler,
  fastifyWebhookPlugin,
  type FastifyLikeInstance,
  type FastifyLikeReply,
  type FastifyLikeRequest,
} from './fastify';
