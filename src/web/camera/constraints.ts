/** Which camera: the user's own (`user`, the default) or the one on the back (`environment`). */
export type Facing = 'user' | 'environment';
export type Orientation = 'portrait' | 'landscape';

/**
 * The video constraints for one camera and screen orientation. Sizes are `ideal`, never `exact`,
 * so a camera that cannot meet them still opens; in portrait the wish is turned (480×640),
 * because phones report the sensor's size in the screen's orientation. A `deviceId`, when given
 * (after the user picked another camera), wins over `facingMode`.
 *
 * @example
 * videoConstraints({ facing: 'user', orientation: 'portrait' });
 * // { facingMode: 'user', width: { ideal: 480 }, height: { ideal: 640 }, frameRate: { ideal: 30, max: 30 } }
 */
export function videoConstraints(opts: {
  facing: Facing;
  orientation: Orientation;
  deviceId?: string;
}): MediaTrackConstraints {
  const [long, short] = [640, 480];
  const [width, height] = opts.orientation === 'portrait' ? [short, long] : [long, short];
  return {
    ...(opts.deviceId ? { deviceId: { exact: opts.deviceId } } : { facingMode: opts.facing }),
    width: { ideal: width },
    height: { ideal: height },
    // More frames than the detector can use only cost battery.
    frameRate: { ideal: 30, max: 30 },
  };
}

/**
 * The screen's orientation from its size (works where `screen.orientation` does not exist).
 *
 * @example
 * orientationOf(390, 844); // 'portrait'
 */
export function orientationOf(width: number, height: number): Orientation {
  return height > width ? 'portrait' : 'landscape';
}

/**
 * The camera to use after the user presses "switch camera": the next video input in the list,
 * wrapping round; `undefined` when there is no other camera.
 *
 * @example
 * nextCamera(['front', 'back'], 'front'); // 'back'
 */
export function nextCamera(
  deviceIds: readonly string[],
  current: string | undefined,
): string | undefined {
  if (deviceIds.length < 2) return undefined;
  const i = current === undefined ? -1 : deviceIds.indexOf(current);
  return deviceIds[(i + 1) % deviceIds.length];
}

/**
 * Whether the preview should be mirrored: only for a camera facing the user, as a mirror would.
 * The frames sent and analysed are never mirrored (see docs/liveness.md).
 *
 * @example
 * mirrorPreview('user'); // true
 */
export function mirrorPreview(facing: Facing | undefined): boolean {
  return facing !== 'environment';
}

/**
 * The document preview's mirror: mirrored by default as `mirrorPreview` says, and a "Mirror"
 * button only for a camera facing the user (on the back camera the preview already reads the
 * right way round, and mirroring it only makes the text unreadable). The user's `flipped` choice
 * counts only where the button is offered.
 *
 * @example
 * documentMirror('environment', true); // { mirrored: false, canMirror: false }
 */
export function documentMirror(
  facing: Facing | undefined,
  flipped: boolean,
): { mirrored: boolean; canMirror: boolean } {
  const canMirror = mirrorPreview(facing);
  return { mirrored: canMirror && !flipped, canMirror };
}

/**
 * The constraints of the document camera: the back camera by default (the user holds the
 * document, not their face), and as many pixels as the camera gives up to 1920×1080, because the
 * machine-readable zone's characters must stay several pixels wide in the photo sent. `ideal`
 * only, so a 640×480 webcam still opens; turned in portrait like `videoConstraints`. A chosen
 * `deviceId` wins over `facingMode`.
 *
 * @example
 * documentVideoConstraints({ orientation: 'landscape' });
 * // { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 }, frameRate: { ideal: 30, max: 30 } }
 */
export function documentVideoConstraints(opts: {
  orientation: Orientation;
  facing?: Facing;
  deviceId?: string;
}): MediaTrackConstraints {
  const [long, short] = [1920, 1080];
  const [width, height] = opts.orientation === 'portrait' ? [short, long] : [long, short];
  return {
    ...(opts.deviceId
      ? { deviceId: { exact: opts.deviceId } }
      : { facingMode: opts.facing ?? 'environment' }),
    width: { ideal: width },
    height: { ideal: height },
    frameRate: { ideal: 30, max: 30 },
  };
}

/**
 * Whether the opened track has a torch (a light the page may switch on), from its capabilities;
 * browsers without `getCapabilities` or without the key have none as far as the page knows.
 *
 * @example
 * hasTorch({ torch: true }); // true
 * hasTorch(undefined); // false
 */
export function hasTorch(capabilities: unknown): boolean {
  return (
    typeof capabilities === 'object' &&
    capabilities !== null &&
    (capabilities as { torch?: unknown }).torch === true
  );
}
