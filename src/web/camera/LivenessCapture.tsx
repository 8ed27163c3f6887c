import { useEffect, useRef, useState } from 'react';
import type { Challenge, Hint } from '../../core/liveness';
import type { CameraErrorKind } from './cameraError';
import { advanceRun, INITIAL_RUN, type CaptureLabel, type RunOptions } from './captureRun';
import { loadFaceDetector, type LiveFaceDetector } from './detector';
import { brightnessOf, grabJpeg } from './grabFrame';
import { OvalGuide, type OvalState } from './OvalGuide';
import { useCamera } from './useCamera';

/** One frame of evidence: the camera's own pixels as JPEG, when it was taken, and its label. */
export interface CapturedFrame extends CaptureLabel {
  blob: Blob;
  /** Milliseconds since the attempt began (the first frame the detector saw). */
  t: number;
}

/** Every word the component shows, given by the screen (in the session's language). */
export interface LivenessStrings {
  loading: string;
  /** Said while the face fits the oval and the baseline is being taken. */
  holdStill: string;
  done: string;
  switchCamera: string;
  retry: string;
  hints: Record<Hint, string>;
  challenges: Record<Challenge, string>;
  cameraErrors: Record<CameraErrorKind, string>;
}

export interface LivenessCaptureProps {
  /** The challenges the server picked for this attempt, in order. */
  challenges: readonly Challenge[];
  strings: LivenessStrings;
  /** The node's time limit; the evidence is sent as it is when it runs out. */
  timeoutSeconds?: number;
  /** The frames, in the order taken, once the last challenge is met or time is up. */
  onEvidence(frames: CapturedFrame[], ended: 'completed' | 'timeout'): void;
  /** No usable camera (none, or the detector cannot run): the node ends `cameraUnavailable`. */
  onCameraUnavailable(kind: CameraErrorKind | 'detector'): void;
  /** Tuning for tests and harnesses. */
  runOptions?: Partial<RunOptions>;
}

/**
 * The camera part of the liveness node: the preview (mirrored like a mirror), the oval with live
 * hints, each challenge in turn, and the frames taken on the way. It decides nothing: the frames
 * go to `onEvidence` and the server analyses them. Nothing blinks or flashes.
 *
 * @example
 * <LivenessCapture challenges={['turnLeft', 'comeCloser']} strings={strings}
 *   onEvidence={(frames) => upload(frames)} onCameraUnavailable={() => reportNoCamera()} />
 */
export function LivenessCapture(props: LivenessCaptureProps) {
  const {
    videoRef,
    state: cameraState,
    mirrored,
    orientation,
    canSwitch,
    switchCamera,
    retry,
  } = useCamera();
  const [detector, setDetector] = useState<LiveFaceDetector | null>(null);
  const [message, setMessage] = useState(props.strings.loading);
  const [oval, setOval] = useState<OvalState>('searching');
  // The callbacks and words may change identity on every render of the screen; the loop reads
  // the latest through a ref rather than restarting.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    if (cameraState.status === 'error' && cameraState.kind === 'missing') {
      latest.current.onCameraUnavailable('missing');
    }
  }, [cameraState]);

  useEffect(() => {
    let closed = false;
    let loaded: LiveFaceDetector | undefined;
    loadFaceDetector().then(
      (d) => {
        if (closed) d.close();
        else {
          loaded = d;
          setDetector(d);
        }
      },
      () => {
        if (!closed) latest.current.onCameraUnavailable('detector');
      },
    );
    return () => {
      closed = true;
      loaded?.close();
    };
  }, []);

  const live = cameraState.status === 'live';
  const challengeKey = props.challenges.join(',');
  useEffect(() => {
    const video = videoRef.current;
    if (!detector || !live || !video) return;
    const challenges = challengeKey.split(',').filter(Boolean) as Challenge[];
    const canvas = document.createElement('canvas');
    const small = document.createElement('canvas');
    const frames: Promise<CapturedFrame | null>[] = [];
    let run = INITIAL_RUN;
    let startedAt: number | undefined;
    let brightness = 255;
    let count = 0;
    let lastVideoTime = -1;
    let raf = 0;
    let stopped = false;

    const tick = () => {
      if (stopped) return;
      raf = requestAnimationFrame(tick);
      // Only new camera frames are worth the detector's time.
      if (video.readyState < 2 || video.currentTime === lastVideoTime) return;
      lastVideoTime = video.currentTime;
      const now = performance.now();
      startedAt ??= now;
      if (count++ % 5 === 0) brightness = brightnessOf(video, small);
      const { faces } = detector.detect(video, now);
      const p = latest.current;
      const step = advanceRun(
        run,
        { faces, brightness, now, frame: { width: video.videoWidth, height: video.videoHeight } },
        challenges,
        {
          ...(p.timeoutSeconds ? { timeoutMs: p.timeoutSeconds * 1000 } : {}),
          ...p.runOptions,
        },
      );
      run = step.state;
      if (step.capture) {
        const t = Math.round(now - startedAt);
        const label = step.capture;
        // A frame that fails to encode is left out rather than holding back the others.
        frames.push(
          grabJpeg(video, canvas).then(
            (blob) => ({ ...label, blob, t }),
            () => null,
          ),
        );
      }
      const s = p.strings;
      const current = challenges[run.index];
      if (run.phase === 'done') {
        stopped = true;
        cancelAnimationFrame(raf);
        setOval('done');
        setMessage(s.done);
        const ended = run.ended ?? 'completed';
        void Promise.all(frames).then((list) =>
          latest.current.onEvidence(
            list.filter((f): f is CapturedFrame => f !== null),
            ended,
          ),
        );
        return;
      }
      const hint = step.hints[0];
      if (run.phase === 'aligning') {
        setOval(hint ? 'searching' : 'ready');
        setMessage(hint ? s.hints[hint] : s.holdStill);
      } else {
        setOval('challenge');
        setMessage(hint ? s.hints[hint] : current ? s.challenges[current] : s.done);
      }
    };
    raf = requestAnimationFrame(tick);
    return () => {
      stopped = true;
      cancelAnimationFrame(raf);
    };
  }, [detector, live, challengeKey, videoRef]);

  const error = cameraState.status === 'error' ? cameraState.kind : null;
  return (
    <div>
      <div
        style={{
          position: 'relative',
          width: '100%',
          // Phone-sized even on a desktop, so the hint under the oval stays on screen.
          maxWidth: '30rem',
          margin: '0 auto',
          aspectRatio: orientation === 'portrait' ? '3 / 4' : '4 / 3',
          background: '#111',
          overflow: 'hidden',
          borderRadius: '0.75rem',
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
            objectFit: 'cover',
            // The preview alone is mirrored; detection and the frames sent use the real pixels.
            transform: mirrored ? 'scaleX(-1)' : undefined,
          }}
        />
        {error ? null : (
          <OvalGuide state={oval} message={detector ? message : props.strings.loading} />
        )}
      </div>
      {error ? (
        <div role="alert">
          <p>{props.strings.cameraErrors[error]}</p>
          {error === 'missing' ? null : (
            <button type="button" onClick={retry}>
              {props.strings.retry}
            </button>
          )}
        </div>
      ) : null}
      {canSwitch && !error ? (
        <button type="button" onClick={switchCamera}>
          {props.strings.switchCamera}
        </button>
      ) : null}
    </div>
  );
}
