/**
 * Liveness on the server: attempts, frames, the analysis jobs and the decision (docs/liveness.md).
 */
import './register';

export {
  sqliteAttemptStore,
  LIVENESS_MIGRATIONS,
  type AttemptRecord,
  type AttemptStore,
  type FrameRecord,
} from './attempt-store';
export { decideAttempt, evidenceOf, screenshotIndexes, MAX_SCREENSHOTS } from './decision';
export { frameBytes } from './frame-image';
export { JOB_MIGRATIONS, sqliteJobQueue, type Job, type JobQueue } from '../jobs/queue';
export { livenessRoutes } from './routes';
export { createLiveness, DECIDE_JOB, FRAME_JOB, type Liveness, type LivenessDeps } from './service';
export { createJobWorker, DEFAULT_LEASE_MS, type JobWorker } from '../jobs/worker';
