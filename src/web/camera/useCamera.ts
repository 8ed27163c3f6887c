import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { classifyCameraError, type CameraErrorKind } from './cameraError';
import {
  mirrorPreview,
  nextCamera,
  orientationOf,
  videoConstraints,
  type Facing,
  type Orientation,
} from './constraints';

export type CameraState =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'live'; width: number; height: number; facing: Facing | undefined }
  | { status: 'error'; kind: CameraErrorKind };

export interface Camera {
  /** Attach to the `<video>` element: the hook sets `playsinline`, `muted` and the stream. */
  videoRef: RefObject<HTMLVideoElement | null>;
  state: CameraState;
  /** Mirror the preview with CSS (`transform: scaleX(-1)`); frames stay unmirrored. */
  mirrored: boolean;
  orientation: Orientation;
  /** Whether there is another camera to switch to (known once the first one is open). */
  canSwitch: boolean;
  /** Opens the next camera (front ↔ back on a phone). */
  switchCamera(): void;
  /** Asks again, after the user allowed the camera or closed the app that held it. */
  retry(): void;
}

const currentOrientation = (): Orientation =>
  typeof window === 'undefined'
    ? 'landscape'
    : orientationOf(window.innerWidth, window.innerHeight);

/**
 * Opens a camera for a node: the front one by default, asked for in the screen's orientation at
 * that moment (portrait or landscape sizes), with the preview mirrored like a mirror, and stopped
 * when the component goes away. `orientation` follows the screen for the layout. Failures are
 * classified (`denied`, `busy`, `missing`, `other`) so the screen can give the right help.
 *
 * @example
 * const camera = useCamera();
 * return <video ref={camera.videoRef} className={camera.mirrored ? 'mirrored' : undefined} />;
 */
export function useCamera(opts: { facing?: Facing; enabled?: boolean } = {}): Camera {
  const enabled = opts.enabled ?? true;
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [state, setState] = useState<CameraState>({ status: 'idle' });
  const [facing, setFacing] = useState<Facing>(opts.facing ?? 'user');
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined);
  const [cameras, setCameras] = useState<string[]>([]);
  const [orientation, setOrientation] = useState<Orientation>(currentOrientation);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const onResize = () => setOrientation(currentOrientation());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    if (!enabled) return;
    let stream: MediaStream | undefined;
    let cancelled = false;
    const video = videoRef.current;
    const open = async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setState({ status: 'error', kind: 'missing' });
        return;
      }
      setState({ status: 'starting' });
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          // The orientation when the camera opens; turning the screen later does not reopen it
          // (that would blank the preview and restart the attempt), the preview just reflows.
          video: videoConstraints({
            facing,
            orientation: currentOrientation(),
            ...(deviceId ? { deviceId } : {}),
          }),
        });
        if (cancelled || !video) return;
        // iOS Safari plays inline and without a tap only when both are set before play().
        video.playsInline = true;
        video.muted = true;
        video.setAttribute('playsinline', '');
        video.srcObject = stream;
        // A camera that stops on its own (unplugged, taken by another app) is an error to help
        // with; one this hook stops fires no `ended`.
        stream.getVideoTracks()[0]?.addEventListener('ended', () => {
          if (!cancelled) setState({ status: 'error', kind: 'busy' });
        });
        await video.play();
        if (cancelled) return;
        // What the browser opened decides the mirroring: a chosen device may face either way.
        const opened = stream.getVideoTracks()[0]?.getSettings().facingMode;
        setState({
          status: 'live',
          width: video.videoWidth,
          height: video.videoHeight,
          facing: opened === 'user' || opened === 'environment' ? opened : undefined,
        });
        // Labels and the full list are only given once a camera is allowed.
        const devices = await navigator.mediaDevices.enumerateDevices();
        if (!cancelled) {
          setCameras(devices.filter((d) => d.kind === 'videoinput').map((d) => d.deviceId));
        }
      } catch (error) {
        if (!cancelled) setState({ status: 'error', kind: classifyCameraError(error) });
      }
    };
    void open();
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((t) => t.stop());
      if (video) video.srcObject = null;
    };
  }, [enabled, facing, deviceId, attempt]);

  const switchCamera = useCallback(() => {
    const track = (videoRef.current?.srcObject as MediaStream | null)?.getVideoTracks()[0];
    const next = nextCamera(cameras, track?.getSettings().deviceId ?? deviceId);
    if (next) setDeviceId(next);
    // Without a device list (some browsers), asking for the other facing still switches.
    else setFacing((f) => (f === 'user' ? 'environment' : 'user'));
  }, [cameras, deviceId]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return {
    videoRef,
    state,
    mirrored: mirrorPreview(state.status === 'live' ? (state.facing ?? facing) : facing),
    orientation,
    canSwitch: cameras.length > 1,
    switchCamera,
    retry,
  };
}
