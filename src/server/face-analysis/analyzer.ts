import type { Box, FaceObservation } from '../../core/liveness';

/** One face as the server's models see it. */
export interface AnalyzedFace extends FaceObservation {
  /** Box in pixels of the analysed frame. */
  box: Box;
  /** Detector confidence 0–1. */
  score: number;
  /**
   * Face mesh points in pixels, `[x, y]` rounded to 0.1 px, in the order of `LANDMARK_INDEXES`
   * (human-analyzer.ts): the face's outline, eyes, brows, nose and mouth. The presentation-attack
   * checks compare them across frames (a flat picture moves as one plane, a head does not).
   */
  landmarks?: [number, number][];
  /** Face description vector for same-person checks (1024 values for `human`'s faceres). */
  embedding: number[];
  /** Head rotation in radians as the model estimates it (its own sign convention, see docs). */
  rotation: { yaw: number; pitch: number; roll: number };
  /** Antispoof model: 0 looks like a screen or print, 1 like a real face. */
  real: number;
  /** Liveness model: 0 looks like a still picture, 1 like a live face. */
  live: number;
  /** Estimated age in years: a model's estimate, not a fact. */
  age: number;
  gender: 'male' | 'female' | 'unknown';
  genderScore: number;
}

/** What one frame held. */
export interface FrameAnalysis {
  width: number;
  height: number;
  /** Mean luma 0–255 of the whole frame. */
  brightness: number;
  faces: AnalyzedFace[];
  /** Milliseconds the analysis took. */
  ms: number;
}

/** A frame the server could not read at all. */
export interface FrameFailure {
  error: string;
}

/** What to look for in a frame (by default everything). */
export interface AnalyzeOptions {
  /**
   * Only where the faces are (box, score, mesh points): no description, antispoof or liveness
   * models (`embedding` empty, `real` and `live` 0). A document's portrait needs no more, and those
   * models cost two thirds of a frame's time.
   */
  boxesOnly?: boolean;
  /**
   * Everything but the description model: no `embedding` (empty), age (0) or gender (`unknown`,
   * score 0); the mesh, antispoof and liveness models run as always. The description model is
   * about 60 % of a frame's time; a liveness `between` frame needs it only when the decision rests
   * on that frame (src/server/liveness/light-frames.ts).
   */
  withoutDescription?: boolean;
  /**
   * Refines the mesh's eye contours with human's iris model, so that the eyelids in `landmarks`
   * follow a closed eye (`eyeOpenness` 0.21 closed against 0.37 open on the astronaut, against 0.29
   * and 0.35 without it). A liveness attempt without challenges asks for it on every frame: its
   * decision needs a blink (src/server/liveness/light-frames.ts). Ignored with `boxesOnly`.
   */
  eyes?: boolean;
}

/**
 * Looks at camera frames on the server. Implementations must be safe to call concurrently (they
 * may queue) and give the same answer for the same bytes.
 */
export interface FaceAnalyzer {
  /** Loads the models; `analyze` calls it on first use. */
  load(): Promise<void>;
  /** Analyses one JPEG or PNG frame. Throws `ImageDecodeError` for bytes that are neither. */
  analyze(image: Uint8Array, opts?: AnalyzeOptions): Promise<FrameAnalysis>;
  /** Releases the models. */
  close(): Promise<void>;
}
