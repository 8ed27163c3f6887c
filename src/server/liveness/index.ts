/**
 * Liveness on the server: attempts, frames, the analysis jobs and the decision (docs/liveness.md).
 */
export {
  sqliteAttemptStore,
  LIVENESS_MIGRATIONS,
  type AttemptRecord,
  type AttemptStore,
  type FrameRecord,
} from './attempt-store';
export { decideAttempt, evidenceOf, screenshotIndexes, MAX_SCREENSHOTS } from './decision';
export { frameBytes } from './frame-image';
export { createLiveness, DECIDE_JOB, FRAME_JOB, type Liveness, type LivenessDeps } from './service';
