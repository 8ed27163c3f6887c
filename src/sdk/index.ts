/**
 * `open-idv/sdk`: what an integrator's backend uses. The typed API client (create, retrieve,
 * list, refresh, avatars, languages, with safe retries) and the receiver of the service's
 * webhooks. Nothing of the service runs here: the client's types come from the service's schemas
 * by type-only imports, so the folder can be published as its own package.
 */
export {
  createIdvClient,
  listQuery,
  CLIENT_API_VERSION,
  type CreateOptions,
  type IdvClient,
  type IdvClientOptions,
  type SessionsApi,
} from './client';
export { IdvApiError, type ApiErrorType } from './apiError';
export {
  DEFAULT_RETRY_POLICY,
  isRetryable,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
} from './retry';
export type { FetchLike } from './transport';
export type {
  Avatar,
  AvatarList,
  ClientSecret,
  CreateSessionParams,
  ErrorBody,
  ErrorDetail,
  Language,
  LanguageList,
  ListSessionsParams,
  Report,
  Session,
  SessionListPage,
  SessionStatus,
  SessionWithSecret,
} from './apiTypes';
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
