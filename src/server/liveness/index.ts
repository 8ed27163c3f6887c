/**
 * Liveness on the server: attempts, frames, the analysis jobs and the decision (docs/liveness.md).
 */
export { sqliteAttemptStore, LIVENESS_MIGRATIONS, type SqliteAttemptStore } from './attempt-store';
export type { AttemptRecord, AttemptStore, FrameRecord } from './attempt-types';
export { pgAttemptStore, PG_LIVENESS_MIGRATIONS } from './pg-attempt-store';
export { decideAttempt, evidenceOf, screenshotIndexes, MAX_SCREENSHOTS } from './decision';
export { frameBytes } from './frame-image';
export { createLiveness, DECIDE_JOB, FRAME_JOB, type Liveness, type LivenessDeps } from './service';
