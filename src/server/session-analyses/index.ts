/**
 * The post-session analyses (docs/analyses.md): aiAnalysis, deepfake detection, the session video
 * and its analysis.
 */
export { sqliteAccountSettings, type AccountSettings } from './account-settings';
export { aiAnalysisOf } from './ai-analysis';
export {
  DeepfakeError,
  modelDeepfakeDetector,
  spoofVerdict,
  type DeepfakeDetector,
} from './deepfake';
export { ANALYSES_MIGRATIONS } from './migrations';
export { pgAccountSettings } from './pg-account-settings';
export { ANALYSES_CHANNEL, PG_ANALYSES_MIGRATIONS } from './pg-migrations';
export { pgAnalysesStore } from './pg-store';
export { sqliteAnalysesStore } from './sqlite-store';
export type { AnalysesQueue, AnalysesStore, EndedSession, QueuedJob, VideoFrameRow } from './store';
export { analysesRoutes } from './routes';
export {
  createAnalyses,
  SESSION_JOB,
  VIDEO_FRAME_JOB,
  VIDEO_JOB,
  type Analyses,
  type AnalysesDeps,
} from './service';
export { videoAnalysisOf } from './video-analysis';
