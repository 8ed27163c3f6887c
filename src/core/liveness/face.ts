/**
 * What a face detector reports for one face, in the pixel coordinates of the frame it ran on.
 *
 * Frames are always the camera's own pixels, never mirrored: the page mirrors the preview with CSS
 * only, and sends and analyses unmirrored frames. Then the image's right side is the user's left.
 */
export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FrameSize {
  width: number;
  height: number;
}

/**
 * One detected face: its box and MediaPipe's six keypoints in MediaPipe's order (two eyes, nose
 * tip, mouth centre, two ear tragions). The two eyes and the two ears are told apart here by their
 * position in the image, not by the detector's labels, so either labelling convention works.
 */
export interface FaceObservation {
  box: Box;
  /** [eye, eye, noseTip, mouthCentre, ear, ear] */
  keypoints: readonly Point[];
  /** Detector confidence 0–1, when known. */
  score?: number;
}

/** The six keypoints, named by where they are in an unmirrored image. */
export interface NamedKeypoints {
  /** The eye on the image's left: the user's right eye. */
  imageLeftEye: Point;
  imageRightEye: Point;
  nose: Point;
  mouth: Point;
  imageLeftEar: Point;
  imageRightEar: Point;
}

/**
 * Names the six keypoints by image position, or throws when there are fewer than six.
 *
 * @example
 * nameKeypoints(face).imageLeftEye; // the user's right eye in an unmirrored frame
 */
export function nameKeypoints(face: FaceObservation): NamedKeypoints {
  const [a, b, nose, mouth, c, d] = face.keypoints;
  if (!a || !b || !nose || !mouth || !c || !d) {
    throw new Error(`a face needs six keypoints, got ${face.keypoints.length}`);
  }
  const [imageLeftEye, imageRightEye] = a.x <= b.x ? [a, b] : [b, a];
  const [imageLeftEar, imageRightEar] = c.x <= d.x ? [c, d] : [d, c];
  return { imageLeftEye, imageRightEye, nose, mouth, imageLeftEar, imageRightEar };
}

/** Flips a face found in a mirrored frame back into unmirrored coordinates. */
export function unmirror(face: FaceObservation, frame: FrameSize): FaceObservation {
  return {
    ...face,
    box: { ...face.box, x: frame.width - face.box.x - face.box.width },
    keypoints: face.keypoints.map((p) => ({ x: frame.width - p.x, y: p.y })),
  };
}
