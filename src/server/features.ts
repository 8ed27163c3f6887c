/**
 * The server's features with tables of their own, listed: a data folder's store (`idv serve`, the
 * `idv` commands) is opened with all of them after the core's. Nothing registers itself at import;
 * a new feature adds its migrations here. Each feature's constructor (`createMediaService`,
 * `createLiveness`, …) applies its own too, so an app over a store opened with the core's alone
 * (the tests) works as well.
 */
import { FACE_MIGRATIONS } from './faces/face-store';
import { PG_FACE_MIGRATIONS } from './faces/pg-face-store';
import { PG_RATE_LIMIT_MIGRATIONS } from './http/pgRateLimit';
import { PG_JOB_MIGRATIONS } from './jobs/pg-queue';
import { JOB_MIGRATIONS } from './jobs/queue';
import { LIFECYCLE_MIGRATIONS } from './lifecycle/migrations';
import { PG_LIFECYCLE_MIGRATIONS } from './lifecycle/pg-lifecycle';
import { LIVENESS_MIGRATIONS } from './liveness/attempt-store';
import { PG_LIVENESS_MIGRATIONS } from './liveness/pg-attempt-store';
import { MEDIA_MIGRATIONS } from './media/migrations';
import { PG_MEDIA_MIGRATIONS } from './media/pg-records';
import { PG_PLATFORM_SECRET_MIGRATIONS } from './platform-secrets/pg';
import { ANALYSES_MIGRATIONS } from './session-analyses/migrations';
import { PG_ANALYSES_MIGRATIONS } from './session-analyses/pg-migrations';
import { CORE_MIGRATIONS, type Migration } from './store/migrations';
import { PG_CORE_MIGRATIONS, type PgMigration } from './store/pg/migrations';
import { PG_WEBHOOK_MIGRATIONS } from './webhooks/pg-store';
import { WEBHOOK_MIGRATIONS } from './webhooks/sqlite-store';

/** Every table of the service, the core's first. */
export const SERVER_MIGRATIONS: readonly Migration[] = [
  ...CORE_MIGRATIONS,
  ...MEDIA_MIGRATIONS,
  ...JOB_MIGRATIONS,
  ...LIVENESS_MIGRATIONS,
  ...FACE_MIGRATIONS,
  ...ANALYSES_MIGRATIONS,
  ...WEBHOOK_MIGRATIONS,
  ...LIFECYCLE_MIGRATIONS,
];

/**
 * Every table that has moved to PostgreSQL so far, the core's first (docs/deploy.md lists what
 * has not yet).
 */
export const PG_SERVER_MIGRATIONS: readonly PgMigration[] = [
  ...PG_CORE_MIGRATIONS,
  ...PG_JOB_MIGRATIONS,
  ...PG_WEBHOOK_MIGRATIONS,
  ...PG_FACE_MIGRATIONS,
  ...PG_ANALYSES_MIGRATIONS,
  ...PG_MEDIA_MIGRATIONS,
  ...PG_LIVENESS_MIGRATIONS,
  ...PG_PLATFORM_SECRET_MIGRATIONS,
  ...PG_RATE_LIMIT_MIGRATIONS,
  ...PG_LIFECYCLE_MIGRATIONS,
];
