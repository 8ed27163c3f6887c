/**
 * Attempts of a camera node (liveness_detection, face_scan): why one failed in a way another try
 * may fix. The server names the reason (docs/liveness.md, "Attempts"); the page says it and offers
 * "Try again".
 */

/**
 * A failure another attempt may fix, most specific first: a challenge not met, a picture too dark,
 * a face too small or off-centre, more than one face, no face, a blurred picture, a camera the
 * page lost, time run out, another person in the picture, frames the server could not read, and
 * a face_scan capture in which the eyes never closed (a photo cannot blink).
 */
export const RETRY_REASONS = [
  'challengeFailed',
  'tooDark',
  'faceTooSmall',
  'faceOffCentre',
  'multipleFaces',
  'noFace',
  'blur',
  'cameraLost',
  'timeout',
  'personChanged',
  'poorQuality',
  'noBlink',
] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];

/**
 * Whether a reason is one another attempt may fix.
 *
 * @example
 * isRetryReason('tooDark'); // true
 * isRetryReason('presentationAttack'); // false
 */
export function isRetryReason(reason: unknown): reason is RetryReason {
  return typeof reason === 'string' && (RETRY_REASONS as readonly string[]).includes(reason);
}
