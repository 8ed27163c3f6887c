import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { classifyCameraError, type CameraErrorKind } from '../camera/cameraError';
import {
  documentVideoConstraints,
  hasTorch,
  documentMirror,
  nextCamera,
  orientationOf,
  type Facing,
} from '../camera/constraints';
import { recordingCameraReleased } from '../camera/sessionRecorder';

export type DocumentCameraState =
  | { status: 'starting' }
  | { status: 'live'; width: number; height: number }
  | { status: 'error'; kind: CameraErrorKind };

export interface DocumentCamera {
  videoRef: RefObject<HTMLVideoElement | null>;
  state: DocumentCameraState;
  /** The preview is mirrored (CSS only): by default only a camera facing the user. */
  mirrored: boolean;
  /** A "Mirror" button makes sense: the camera faces the user (never the back camera). */
  canMirror: boolean;
  /** The user's own choice turns the default mirroring over. */
  toggleMirror(): void;
  canSwitch: boolean;
  switchCamera(): void;
  /** The opened camera has a torch the page can switch. */
  torchAvailable: boolean;
  torchOn: boolean;
  toggleTorch(): void;
  retry(): void;
}

// The torch is not in TypeScript's DOM types yet (Image Capture spec).
type TorchConstraint = MediaTrackConstraintSet & { torch?: boolean };

/**
 * The document camera: the back one by default at up to 1920×1080 (`documentVideoConstraints`),
 * `playsinline` and muted, not mirrored unless it faces the user or the user asks, with the torch
 * when the track's capabilities list one and the camera switch when there are two cameras.
 * Stopped when the component goes away. Failures are classified as in `useCamera`.
 *
 * @example
 * const camera = useDocumentCamera();
 * return <video ref={camera.videoRef} />;
 */
export function useDocumentCamera(opts: { enabled?: boolean } = {}): DocumentCamera {
  const enabled = opts.enabled ?? true;
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [state, setState] = useState<DocumentCameraState>({ status: 'starting' });
  const [facing, setFacing] = useState<Facing>('environment');
  const [openedFacing, setOpenedFacing] = useState<Facing | undefined>(undefined);
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined);
  const [cameras, setCameras] = useState<string[]>([]);
  const [flip, setFlip] = useState(false);
  const [torchAvailable, setTorchAvailable] = useState(false);
  const [torchOn, setTorchOn] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const track = useRef<MediaStreamTrack | null>(null);
  const recordingReleased = useRef(false);

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
      setTorchOn(false);
      setTorchAvailable(false);
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: documentVideoConstraints({
            facing,
            orientation: orientationOf(window.innerWidth, window.innerHeight),
            ...(deviceId ? { deviceId } : {}),
          }),
        });
        if (cancelled || !video) return;
        video.playsInline = true;
        video.muted = true;
        video.setAttribute('playsinline', '');
        video.srcObject = stream;
        await video.play();
        if (cancelled) return;
        const t = stream.getVideoTracks()[0] ?? null;
        track.current = t;
        const opened = t?.getSettings().facingMode;
        setOpenedFacing(opened === 'user' || opened === 'environment' ? opened : undefined);
        setTorchAvailable(hasTorch(t?.getCapabilities?.()));
        setState({ status: 'live', width: video.videoWidth, height: video.videoHeight });
        const devices = await navigator.mediaDevices.enumerateDevices();
        if (!cancelled) {
          setCameras(devices.filter((d) => d.kind === 'videoinput').map((d) => d.deviceId));
        }
      } catch (error) {
        if (cancelled) return;
        const kind = classifyCameraError(error);
        // Phones that open one camera at a time refuse the back camera while the session
        // recording holds the front one: the document matters more than the rest of the video.
        if (kind === 'busy' && !recordingReleased.current) {
          recordingReleased.current = true;
          void recordingCameraReleased().then(() => {
            if (!cancelled) setAttempt((n) => n + 1);
          });
          return;
        }
        setState({ status: 'error', kind });
      }
    };
    void open();
    return () => {
      cancelled = true;
      track.current = null;
      stream?.getTracks().forEach((t) => t.stop());
      if (video) video.srcObject = null;
    };
  }, [enabled, facing, deviceId, attempt]);

  const switchCamera = useCallback(() => {
    const current = track.current?.getSettings().deviceId ?? deviceId;
    const next = nextCamera(cameras, current);
    if (next) setDeviceId(next);
    else setFacing((f) => (f === 'user' ? 'environment' : 'user'));
  }, [cameras, deviceId]);

  const toggleTorch = useCallback(() => {
    const t = track.current;
    if (!t) return;
    const want = !torchOn;
    const advanced: TorchConstraint[] = [{ torch: want }];
    t.applyConstraints({ advanced }).then(
      () => setTorchOn(want),
      // A torch the capabilities announced but the device refused: hide the button.
      () => setTorchAvailable(false),
    );
  }, [torchOn]);

  // The camera that opened decides the default (a chosen device may face either way).
  const { mirrored, canMirror } = documentMirror(openedFacing ?? facing, flip);
  return {
    videoRef,
    state,
    mirrored,
    canMirror,
    toggleMirror: useCallback(() => setFlip((f) => !f), []),
    canSwitch: cameras.length > 1,
    switchCamera,
    torchAvailable,
    torchOn,
    toggleTorch,
    retry: useCallback(() => setAttempt((n) => n + 1), []),
  };
}
