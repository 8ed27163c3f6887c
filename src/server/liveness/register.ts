/**
 * Importing this module adds the `jobs`, `liveness_attempts` and `liveness_frames` tables to every
 * store opened afterwards (`createLiveness` also applies them to a store opened before).
 */
import { registerMigrations } from '../store/migrations';
import { LIVENESS_MIGRATIONS } from './attempt-store';
import { JOB_MIGRATIONS } from '../jobs/queue';

registerMigrations(...JOB_MIGRATIONS, ...LIVENESS_MIGRATIONS);
