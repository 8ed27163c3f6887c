import type { FaceObservation, FrameSize } from '../../core/liveness';
import { toFaceObservations } from './detectionAdapter';

/** Where our own origin serves MediaPipe's wasm and the model (`npm run models` puts them there). */
export const MEDIAPIPE_WASM_PATH = '/mediapipe';
export const FACE_MODEL_PATH = '/models/face_detector.tflite';

export interface FaceDetection {
  faces: FaceObservation[];
  /** Milliseconds the detector took on this frame. */
  ms: number;
}

export interface LiveFaceDetector {
  /**
   * Runs on the current frame of a playing video, or on a canvas holding a copy of it; `now` must
   * grow from call to call.
   */
  detect(source: HTMLVideoElement | HTMLCanvasElement, now: number): FaceDetection;
  close(): void;
}

/**
 * Loads MediaPipe's FaceDetector in VIDEO mode on the CPU, with its wasm and the short-range
 * model from our own origin (no request leaves it). `@mediapipe/tasks-vision` is imported
 * dynamically so that it is its own chunk, fetched only when a camera node comes.
 *
 * @example
 * const detector = await loadFaceDetector();
 * const { faces } = detector.detect(canvas, performance.now());
 */
export async function loadFaceDetector(
  opts: { wasmPath?: string; modelPath?: string; minScore?: number } = {},
): Promise<LiveFaceDetector> {
  const { FaceDetector, FilesetResolver } = await import('@mediapipe/tasks-vision');
  const fileset = await FilesetResolver.forVisionTasks(opts.wasmPath ?? MEDIAPIPE_WASM_PATH);
  const detector = await FaceDetector.createFromOptions(fileset, {
    baseOptions: { modelAssetPath: opts.modelPath ?? FACE_MODEL_PATH, delegate: 'CPU' },
    runningMode: 'VIDEO',
    // Low enough to see a second face for the "one person only" hint; guidance filters at 0.5.
    minDetectionConfidence: opts.minScore ?? 0.4,
  });
  let last = -Infinity;
  return {
    detect(source, now) {
      // MediaPipe refuses a timestamp that does not grow.
      const t = Math.max(now, last + 1);
      last = t;
      const frame: FrameSize =
        source instanceof HTMLVideoElement
          ? { width: source.videoWidth, height: source.videoHeight }
          : { width: source.width, height: source.height };
      const started = performance.now();
      const result = detector.detectForVideo(source, t);
      const ms = performance.now() - started;
      return { faces: toFaceObservations(result.detections, frame), ms };
    },
    close() {
      detector.close();
    },
  };
}
