/**
 * The data lifecycle (docs/lifecycle.md): erasing a session, and the retentions the sweeper
 * applies.
 */
export { createSessionEraser, type SessionEraser, type SessionEraserDeps } from './erase-session';
export type { LifecycleStore } from './lifecycle-store';
export { LIFECYCLE_MIGRATIONS } from './migrations';
export { PG_LIFECYCLE_MIGRATIONS, pgLifecycle } from './pg-lifecycle';
export { sqliteLifecycle, type SqliteLifecycleDeps } from './sqlite-lifecycle';
export {
  createRetention,
  DAY_MS,
  DEFAULT_RETENTION,
  RETENTION_MEDIA_ENV,
  RETENTION_SESSION_ENV,
  retentionFromEnv,
  type Retention,
  type RetentionRound,
  type RetentionSettings,
} from './retention';
