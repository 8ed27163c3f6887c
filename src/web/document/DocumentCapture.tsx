import { useEffect, useRef, type MutableRefObject } from 'react';
import { CameraErrorNotice } from '../camera/CameraErrorNotice';
import { grabJpeg } from '../camera/grabFrame';
import type { CameraErrorKind } from '../camera/cameraError';
import { releaseRecordingCamera } from '../camera/sessionRecorder';
import { createFrameAnalyser } from './analyseFrame';
import { guideRect, type DocumentType } from './guide';
import { DocumentHint, GuideOverlay, type GuideState } from './GuideOverlay';
import type { FrameReading } from './scanState';
import { useDocumentCamera } from './useDocumentCamera';
import { jpegWithinLimit } from './upload';

/** Every word the capture shows, in the session's language. */
export interface DocumentCaptureStrings {
  loading: string;
  shutter: string;
  torchOn: string;
  torchOff: string;
  switchCamera: string;
  mirror: string;
  retry: string;
  cameraErrors: Record<CameraErrorKind, string>;
  /** The steps to allow a blocked camera again in this browser, where they are known. */
  denialHelp?: string | undefined;
}

export interface DocumentCaptureProps {
  type: DocumentType;
  /** The hint under the guide (worked out by the screen from the readings). */
  message: string;
  guideState: GuideState;
  strings: DocumentCaptureStrings;
  /** The node's buttons. */
  showTorch: boolean;
  showSwitch: boolean;
  showMirror: boolean;
  /** The shutter is off while a photo is being read. */
  shutterDisabled: boolean;
  /** The checks of each analysed frame (about eight a second). */
  onReading(reading: FrameReading, now: number): void;
  onShutter(): void;
  /** The camera went live, is starting again, or failed. */
  onCamera(status: 'starting' | 'live' | CameraErrorKind): void;
  /** Filled in by the component: the current frame as a JPEG at the camera's full size. */
  grabRef: MutableRefObject<(() => Promise<Blob>) | null>;
}

/** Frames are checked this often (ms): enough to feel immediate, cheap on a phone. */
const CHECK_EVERY_MS = 120;
/** JPEG quality of the photo sent: the zone's characters need their edges. */
const PHOTO_QUALITY = 0.92;

/**
 * The camera part of the document node: the preview (the back camera, shown whole so the frame
 * drawn over it matches the pixels), the guide for the document type with the hint, the shutter,
 * and the torch, camera switch and mirror buttons when the node asks for them and the device has
 * them. It reads frames for the screen's checks and hands over a full-size JPEG when asked; the
 * server reads the document.
 *
 * @example
 * <DocumentCapture type="passport" message={hint} guideState="searching" strings={strings}
 *   showTorch showSwitch showMirror shutterDisabled={false} onReading={seen}
 *   onShutter={shoot} onCamera={cameraChanged} grabRef={grab} />
 */
export function DocumentCapture(props: DocumentCaptureProps) {
  const camera = useDocumentCamera();
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  const { state, videoRef } = camera;
  const status = state.status === 'error' ? state.kind : state.status;

  useEffect(() => {
    latest.current.onCamera(status);
  }, [status]);

  const live = state.status === 'live';
  useEffect(() => {
    const video = videoRef.current;
    if (!live || !video) return;
    const canvas = document.createElement('canvas');
    const { grabRef } = latest.current;
    grabRef.current = async () => {
      const blob = await grabJpeg(video, canvas, PHOTO_QUALITY);
      // A 4K camera's photo can pass the server's 3 MB: encoded again at a lower quality.
      return blob.size <= 3 * 1024 * 1024 ? blob : jpegWithinLimit(canvas);
    };
    const analyser = createFrameAnalyser();
    let last = 0;
    let raf = 0;
    const tick = () => {
      raf = requestAnimationFrame(tick);
      const now = performance.now();
      if (now - last < CHECK_EVERY_MS) return;
      last = now;
      const p = latest.current;
      const reading = analyser.analyse(video, p.type, now);
      if (reading) p.onReading(reading, now);
    };
    raf = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(raf);
      grabRef.current = null;
    };
  }, [live, videoRef]);

  const frame =
    state.status === 'live' && state.width > 0
      ? { width: state.width, height: state.height }
      : { width: 4, height: 3 };
  const guide = guideRect(props.type, frame);
  const error = state.status === 'error' ? state.kind : null;
  return (
    <div data-testid="document-capture" data-camera={status} data-mirrored={camera.mirrored}>
      {error ? (
        <CameraErrorNotice
          kind={error}
          messages={props.strings.cameraErrors}
          denialHelp={props.strings.denialHelp}
          retryLabel={props.strings.retry}
          onRetry={camera.retry}
        />
      ) : null}
      <div
        style={{
          position: 'relative',
          width: '100%',
          maxWidth: '40rem',
          margin: '0 auto',
          aspectRatio: `${frame.width} / ${frame.height}`,
          background: '#111',
          overflow: 'hidden',
          borderRadius: '0.75rem',
          display: error ? 'none' : undefined,
        }}
      >
        <video
          ref={videoRef}
          autoPlay
          muted
          playsInline
          aria-hidden="true"
          style={{
            width: '100%',
            height: '100%',
            objectFit: 'contain',
            // The preview alone is mirrored; the photo sent is the camera's own pixels.
            transform: camera.mirrored ? 'scaleX(-1)' : undefined,
          }}
        />
        <GuideOverlay frame={frame} guide={guide} state={live ? props.guideState : 'searching'} />
      </div>
      {error ? null : <DocumentHint message={live ? props.message : props.strings.loading} />}
      {error ? null : (
        <div className="actions" style={{ justifyContent: 'center' }}>
          <button
            type="button"
            className="button"
            data-testid="document-shutter"
            disabled={!live || props.shutterDisabled}
            onClick={() => latest.current.onShutter()}
          >
            {props.strings.shutter}
          </button>
          {props.showTorch && camera.torchAvailable ? (
            <button
              type="button"
              className="button button-secondary"
              aria-pressed={camera.torchOn}
              data-testid="document-torch"
              onClick={camera.toggleTorch}
            >
              {camera.torchOn ? props.strings.torchOff : props.strings.torchOn}
            </button>
          ) : null}
          {props.showSwitch && camera.canSwitch ? (
            <button
              type="button"
              className="button button-secondary"
              data-testid="document-switch"
              onClick={() => {
                // A phone opens one camera at a time: the session recording lets its copy go.
                releaseRecordingCamera();
                camera.switchCamera();
              }}
            >
              {props.strings.switchCamera}
            </button>
          ) : null}
          {props.showMirror && live && camera.canMirror ? (
            <button
              type="button"
              className="button button-secondary"
              aria-pressed={camera.mirrored}
              data-testid="document-mirror"
              onClick={camera.toggleMirror}
            >
              {props.strings.mirror}
            </button>
          ) : null}
        </div>
      )}
    </div>
  );
}
