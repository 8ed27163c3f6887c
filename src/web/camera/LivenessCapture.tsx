import { useEffect, useRef, useState } from 'react';
import { CameraErrorNotice } from './CameraErrorNotice';
import type { Challenge, Hint } from '../../core/liveness';
import type { CameraErrorKind } from './cameraError';
import {
  advanceRun,
  INITIAL_RUN,
  type CaptureLabel,
  type RunOptions,
  type RunState,
} from './captureRun';
import { loadFaceDetector, type LiveFaceDetector } from './detector';
import { holdMessage, NO_MESSAGE } from './messageHold';
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
  /** "Step 2 of 3" under the preview during the challenges. */
  progress(current: number, total: number): string;
  hints: Record<Hint, string>;
  challenges: Record<Challenge, string>;
  cameraErrors: Record<CameraErrorKind, string>;
}

export interface LivenessCaptureProps {
  /**
   * The challenges the server picked for this attempt, in order; null until there is an
   * attempt (the camera opens and the detector loads meanwhile, nothing is captured).
   */
  challenges: readonly Challenge[] | null;
  /**
   * The attempt the challenges belong to. A capture runs once per attempt: when the camera
   * comes back (a switch, a retry) it waits for a new one, asked for through `onReady`.
   */
  attemptKey: string | null;
  strings: LivenessStrings;
  /** The node's time limit; the capture ends with `timeout` when it runs out. */
  timeoutSeconds?: number;
  /** The camera is live and the detector loaded: the first time, and after each camera change. */
  onReady(): void;
  /** Each frame, as soon as it is encoded, in the order taken. */
  onFrame(frame: CapturedFrame, attemptKey: string): void;
  /**
   * The capture is over: every challenge shown (`done`) or the node's time ran out (`timeout`).
   * Called after the last `onFrame` of the attempt.
   */
  onDone(ended: 'done' | 'timeout', attemptKey: string): void;
  /** No usable camera (none, or the detector cannot run): the node ends `cameraUnavailable`. */
  onCameraUnavailable(kind: CameraErrorKind | 'detector'): void;
  /** Tuning for tests and harnesses. */
  runOptions?: Partial<RunOptions>;
  /** The camera's stream each time a camera goes live (the session recording starts from it). */
  onStream?(stream: MediaStream): void;
  /** The user asked for another camera; called before the current one is let go. */
  onSwitchCamera?(): void;
}

/**
 * The camera part of the liveness node: the preview (mirrored like a mirror), the oval with live
 * hints, each challenge in turn, and the frames taken on the way, handed over one by one as they
 * are taken so they can be uploaded during the challenges. It decides nothing: the server
 * analyses the frames. Nothing blinks or flashes.
 *
 * @example
 * <LivenessCapture challenges={attempt?.challenges ?? null} attemptKey={attempt?.id ?? null}
 *   strings={strings} onReady={startAttempt} onFrame={(f) => queue.push(f)}
 *   onDone={(ended) => finish(ended)} onCameraUnavailable={() => reportNoCamera()} />
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
  const [detectorFailed, setDetectorFailed] = useState(false);
  const [message, setMessage] = useState(props.strings.loading);
  const [oval, setOval] = useState<OvalState>('searching');
  const [phase, setPhase] = useState<RunState['phase'] | 'waiting'>('waiting');
  const [challengeIndex, setChallengeIndex] = useState(0);
  // Attempts that already had a capture: a camera that comes back must not run one twice.
  const ran = useRef(new Set<string>());
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
        if (closed) return;
        setDetectorFailed(true);
        latest.current.onCameraUnavailable('detector');
      },
    );
    return () => {
      closed = true;
      loaded?.close();
    };
  }, []);

  const live = cameraState.status === 'live';
  useEffect(() => {
    if (detector && live) latest.current.onReady();
  }, [detector, live]);

  useEffect(() => {
    const stream = videoRef.current?.srcObject;
    if (live && stream instanceof MediaStream) latest.current.onStream?.(stream);
  }, [live, videoRef]);

  const challengeKey = props.challenges?.join(',') ?? null;
  const attemptKey = props.attemptKey;
  useEffect(() => {
    const video = videoRef.current;
    if (!detector || !live || !video || !attemptKey || challengeKey === null) return;
    if (ran.current.has(attemptKey)) return;
    ran.current.add(attemptKey);
    const key = attemptKey;
    const challenges = challengeKey.split(',').filter(Boolean) as Challenge[];
    const canvas = document.createElement('canvas');
    const small = document.createElement('canvas');
    // Frames are handed over in the order taken, each once encoded; the end comes after them.
    let delivered: Promise<void> = Promise.resolve();
    let run = INITIAL_RUN;
    let held = NO_MESSAGE;
    let shownPhase: RunState['phase'] | undefined;
    let shownIndex = -1;
    let startedAt: number | undefined;
    let brightness = 255;
    let count = 0;
    let lastVideoTime = -1;
    let raf = 0;
    let finished = false;
    // Set when the attempt is left (camera change, new attempt, screen gone): nothing more of it
    // is handed over.
    let abandoned = false;
    setPhase('aligning');
    setChallengeIndex(0);

    const tick = () => {
      if (finished || abandoned) return;
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
        // The pixels are copied now; the encoding finishes later.
        const encoded = grabJpeg(video, canvas).then(
          (blob): CapturedFrame => ({ ...label, blob, t }),
          () => null,
        );
        delivered = delivered.then(async () => {
          const frame = await encoded;
          // A frame that fails to encode is left out rather than holding back the others.
          if (frame && !abandoned) latest.current.onFrame(frame, key);
        });
      }
      const s = p.strings;
      const current = challenges[run.index];
      setPhase(run.phase);
      setChallengeIndex(run.index);
      if (run.phase === 'done') {
        finished = true;
        cancelAnimationFrame(raf);
        setOval('done');
        setMessage(s.done);
        const ended = run.ended === 'timeout' ? 'timeout' : 'done';
        // After the frames still being encoded.
        void delivered.then(() => {
          if (!abandoned) latest.current.onDone(ended, key);
        });
        return;
      }
      const hint = step.hints[0];
      // The words change at once with the step (the next challenge), and only after a steady
      // moment with the detector's reading.
      const immediate = run.phase !== shownPhase || run.index !== shownIndex;
      shownPhase = run.phase;
      shownIndex = run.index;
      // The oval's colour goes with its words, so a wavering reading does not flicker it either.
      let wanted: [OvalState, string];
      if (run.phase === 'aligning') {
        wanted = hint ? ['searching', s.hints[hint]] : ['ready', s.holdStill];
      } else {
        wanted = ['challenge', hint ? s.hints[hint] : current ? s.challenges[current] : s.done];
      }
      held = holdMessage(held, wanted.join('|'), now, { immediate });
      if (held.shown !== null) {
        const cut = held.shown.indexOf('|');
        setOval(held.shown.slice(0, cut) as OvalState);
        setMessage(held.shown.slice(cut + 1));
      }
    };
    raf = requestAnimationFrame(tick);
    return () => {
      abandoned = true;
      cancelAnimationFrame(raf);
    };
  }, [detector, live, attemptKey, challengeKey, videoRef]);

  const error = cameraState.status === 'error' ? cameraState.kind : null;
  const running = Boolean(detector && attemptKey && phase !== 'waiting');
  const total = props.challenges?.length ?? 0;
  return (
    <div
      data-testid="liveness-capture"
      data-camera={cameraState.status}
      data-detector={detectorFailed ? 'failed' : detector ? 'ready' : 'loading'}
      data-run={running ? phase : 'waiting'}
      data-challenge={
        running && phase === 'challenge' ? props.challenges?.[challengeIndex] : undefined
      }
    >
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
          <OvalGuide
            state={running ? oval : 'searching'}
            message={running ? message : props.strings.loading}
          />
        )}
      </div>
      {running && phase === 'challenge' && total > 0 ? (
        <p className="muted" style={{ textAlign: 'center' }} data-testid="liveness-progress">
          {props.strings.progress(Math.min(challengeIndex + 1, total), total)}
        </p>
      ) : null}
      {error ? (
        <CameraErrorNotice
          kind={error}
          messages={props.strings.cameraErrors}
          retryLabel={props.strings.retry}
          onRetry={retry}
        />
      ) : null}
      {canSwitch && !error ? (
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              latest.current.onSwitchCamera?.();
              switchCamera();
            }}
          >
            {props.strings.switchCamera}
          </button>
        </div>
      ) : null}
    </div>
  );
}
