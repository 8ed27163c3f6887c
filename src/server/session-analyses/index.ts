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
