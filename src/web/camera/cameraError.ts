/** Why the camera could not be opened, in the terms the page explains to the user. */
export type CameraErrorKind = 'denied' | 'busy' | 'missing' | 'other';

/**
 * Classifies a `getUserMedia` failure (a `DOMException` or anything thrown) so the page can say
 * what to do: allow the camera, close the app using it, or go on without one.
 *
 * @example
 * classifyCameraError(new DOMException('', 'NotReadableError')); // 'busy'
 * classifyCameraError({ name: 'OverconstrainedError' }); // 'missing'
 */
export function classifyCameraError(error: unknown): CameraErrorKind {
  const name =
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { name?: unknown }).name === 'string'
      ? (error as { name: string }).name
      : '';
  switch (name) {
    // Older Chromium and Firefox names are kept: they still turn up in embedded web views.
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return 'missing';
    default:
      return 'other';
  }
}

/**
 * Whether a failure means the user has no usable camera at all, so the node should end
 * `inconclusive` with reason `cameraUnavailable` rather than ask again.
 *
 * @example
 * meansNoCamera('missing'); // true
 * meansNoCamera('busy'); // false: closing the other app fixes it
 */
export function meansNoCamera(kind: CameraErrorKind): boolean {
  return kind === 'missing';
}
