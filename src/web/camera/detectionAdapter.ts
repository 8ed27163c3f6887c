import type { FaceObservation, FrameSize } from '../../core/liveness';

/** The part of a MediaPipe `Detection` the adapter reads (kept structural: no MediaPipe import). */
export interface MediaPipeDetection {
  categories: readonly { score: number }[];
  boundingBox?: { originX: number; originY: number; width: number; height: number };
  /** Normalised 0–1 image coordinates. */
  keypoints: readonly { x: number; y: number }[];
}

/**
 * Turns MediaPipe FaceDetector detections into the `FaceObservation`s of `src/core/liveness`:
 * the box is already in pixels, the six keypoints (eyes, nose tip, mouth centre, ear tragions, in
 * MediaPipe's order) are normalised and are scaled to the frame. Detections without a box or
 * without six keypoints are dropped: the pose needs all six.
 *
 * @example
 * toFaceObservations(detector.detectForVideo(video, now).detections, { width: 640, height: 480 });
 */
export function toFaceObservations(
  detections: readonly MediaPipeDetection[],
  frame: FrameSize,
): FaceObservation[] {
  const faces: FaceObservation[] = [];
  for (const d of detections) {
    if (!d.boundingBox || d.keypoints.length < 6) continue;
    const { originX, originY, width, height } = d.boundingBox;
    faces.push({
      box: { x: originX, y: originY, width, height },
      keypoints: d.keypoints
        .slice(0, 6)
        .map((k) => ({ x: k.x * frame.width, y: k.y * frame.height })),
      score: d.categories[0]?.score ?? 0,
    });
  }
  // The most confident face first: guidance and challenges read the first one.
  return faces.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
}
