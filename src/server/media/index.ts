/**
 * Media of a session (user photo, screenshots, frames): bytes behind a `MediaStore`, records in
 * the SQLite store, downloads through signed URLs. See docs/media.md. The S3 store is imported
 * from `./s3-store` (or opened by `./store-config`), not from here: what imports this module does
 * not load the AWS SDK.
 */
export { mediaEvent, mediaEventPayload, mediaEventType } from './event';
export { createFsMediaStore, MediaKeyError } from './fs-store';
export { sqliteMediaForget, type MediaForget } from './forget';
export { extensionFor, mediaKeyFor, mediaKeyProblem } from './keys';
export { MEDIA_MIGRATIONS } from './migrations';
export { mediaRoutes, MediaUrlQuerySchema, type MediaRouteOptions } from './routes';
export {
  loadOrCreateMediaSecret,
  MEDIA_SECRET_BYTES,
  MEDIA_SECRET_FILE,
  MEDIA_SECRET_NAME,
} from './secret';
export { pgMediaRecords, PG_MEDIA_MIGRATIONS, type PgMediaRecords } from './pg-records';
export type { MediaRecordStore, StoredMedia } from './records';
export { createMediaService, type MediaServiceOptions } from './service';
export { sqliteMediaRecords, type SqliteMediaRecords } from './sqlite-records';
export { checkMediaUrl, mediaSignature, signMediaUrl, type MediaUrlCheck } from './signing';
export {
  MEDIA_URL_TTL_MS,
  type MediaKind,
  type MediaRecord,
  type MediaService,
  type MediaStore,
  type SignedMediaUrl,
} from './types';
