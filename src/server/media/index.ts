/**
 * Media of a session (user photo, screenshots, frames): bytes behind a `MediaStore`, records in
 * the SQLite store, downloads through signed URLs. See docs/media.md. The S3 store is imported
 * from `./s3-store` (or opened by `./store-config`), not from here: what imports this module does
 * not load the AWS SDK.
 */
export { mediaEvent, mediaEventPayload, mediaEventType } from './event';
export { createFsMediaStore, MediaKeyError } from './fs-store';
export { extensionFor, mediaKeyFor, mediaKeyProblem } from './keys';
export { MEDIA_MIGRATIONS } from './migrations';
export { mediaRoutes, MediaUrlQuerySchema, type MediaRouteOptions } from './routes';
export {
  loadOrCreateMediaSecret,
  MEDIA_SECRET_BYTES,
  MEDIA_SECRET_FILE,
  MEDIA_SECRET_NAME,
} from './secret';
export { createMediaService, type MediaServiceOptions } from './service';
export { checkMediaUrl, mediaSignature, signMediaUrl, type MediaUrlCheck } from './signing';
export {
  MEDIA_URL_TTL_MS,
  type MediaKind,
  type MediaRecord,
  type MediaService,
  type MediaStore,
  type SignedMediaUrl,
} from './types';
