/**
 * Face matching on the server: face_scan decisions, face_compare, recognition (docs/faces.md).
 */
export {
  createFaces,
  type Faces,
  type FacesDeps,
  type FaceImage,
  type FaceScanDecision,
  type FaceScanInput,
} from './faces';
export { FACE_MIGRATIONS, sqliteFaceStore, type FaceStore, type KnownFace } from './face-store';
export { PG_FACE_MIGRATIONS, pgFaceStore } from './pg-face-store';
export {
  fetchReference,
  REFERENCE_FETCH_DEFAULTS,
  type ReferenceFetchOptions,
} from './reference-fetch';
export { parseImageDataUrl } from './data-url';
export { DEFAULT_SIMILARITY_THRESHOLD, thresholdOf } from './thresholds';
export { RunNodeAnswerSchema, RunNodeBodySchema } from './schemas';
export { bestKnownMatch, compareEmbeddings, faceScanGate } from './verdicts';
