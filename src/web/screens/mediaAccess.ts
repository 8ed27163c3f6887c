import type { Devices } from '../nodes/kind';

/** How asking the browser for devices ended. */
export type AccessResult = 'granted' | 'blocked' | 'notFound' | 'inUse' | 'unsupported';

/**
 * The kind of failure a `getUserMedia` error stands for, so the page can say what to do about it.
 *
 * @example
 * accessFailure({ name: 'NotAllowedError' }); // 'blocked'
 */
export function accessFailure(error: unknown): Exclude<AccessResult, 'granted'> {
  const name = (error as { name?: string } | null)?.name ?? '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') {
    return 'blocked';
  }
  if (
    name === 'NotFoundError' ||
    name === 'OverconstrainedError' ||
    name === 'DevicesNotFoundError'
  ) {
    return 'notFound';
  }
  if (name === 'NotReadableError' || name === 'AbortError' || name === 'TrackStartError') {
    return 'inUse';
  }
  return 'unsupported';
}

/**
 * Asks the browser for the devices, then lets them go at once: this step only obtains the
 * permission; the nodes that film or listen open their own streams.
 *
 * @example
 * await requestDevices({ camera: true, microphone: true }); // 'granted'
 */
export async function requestDevices(devices: Devices): Promise<AccessResult> {
  if (!navigator.mediaDevices?.getUserMedia) return 'unsupported';
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      video: devices.camera ? { facingMode: 'user' } : false,
      audio: devices.microphone,
    });
    stream.getTracks().forEach((track) => track.stop());
    return 'granted';
  } catch (error) {
    return accessFailure(error);
  }
}

/**
 * Calls back when the user changes a site permission to "allow" in the browser's settings, so
 * the page can carry on without making them press "Try again". Returns an unsubscribe function.
 *
 * @example
 * const stop = onPermissionGranted({ camera: true, microphone: false }, retry);
 */
export function onPermissionGranted(devices: Devices, callback: () => void): () => void {
  const statuses: PermissionStatus[] = [];
  let stopped = false;
  const names = [
    ...(devices.camera ? ['camera'] : []),
    ...(devices.microphone ? ['microphone'] : []),
  ] as PermissionName[];
  const check = () => {
    if (
      !stopped &&
      statuses.length === names.length &&
      statuses.every((s) => s.state === 'granted')
    ) {
      callback();
    }
  };
  for (const name of names) {
    navigator.permissions
      ?.query({ name })
      .then((status) => {
        if (stopped) return;
        statuses.push(status);
        status.addEventListener('change', check);
      })
      .catch(() => {
        // Firefox does not know these permission names; the "Try again" button still works.
      });
  }
  return () => {
    stopped = true;
    statuses.forEach((s) => s.removeEventListener('change', check));
  };
}
