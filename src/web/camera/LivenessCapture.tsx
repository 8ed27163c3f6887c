import { useEffect, useRef, useState } from 'react';
import type { AttemptRetry } from '../../core/api/liveness';
import type { Challenge, Hint, RetryReason } from '../../core/liveness';
import { CameraErrorNotice } from './CameraErrorNotice';
import type { CameraErrorKind } from './cameraError';
import { startCaptureLoop } from './captureLoop';
import type { CaptureLabel, RunOptions, RunState } from './captureRun';
import { ChallengeCue } from './ChallengeCue';
import type { LiveFaceDetector } from './detector';
import { takeFaceDetector } from './warmDetector';
import type { CaptureEnd } from './livenessState';
import { OvalGuide, type OvalState } from './OvalGuide';
import { RetryPanel } from './RetryPanel';
import { retryText } from './useCaptureStrings';
import { useCamera } from './useCamera';
import './capture.css';

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
  /** Said after the baseline of a capture without challenges: "Now blink once." */
  blink: string;
  done: string;
  switchCamera: string;
  retry: string;
  /** "Step 2 of 3" over the preview during the challenges. */
  progress(current: number, total: number): string;
  hints: Record<Hint, string>;
  challenges: Record<Challenge, string>;
  cameraErrors: Record<CameraErrorKind, string>;
  /** The steps to allow a blocked camera again in this browser, where they are known. */
  denialHelp?: string | undefined;
  /** Over a failed attempt that may be tried again. */
  retryHeading: string;
  attemptsLeft(left: number): string;
  reasons: Record<RetryReason, string>;
  /** Why a challenge failed, when the server names the movement it did not see. */
  missed: Record<Challenge, string>;
}

export interface LivenessCaptureProps {
  /**
   * The challenges the server picked for this attempt, in order; null while there is no attempt
   * to capture (the camera opens and the detector loads meanwhile, nothing is captured).
   */
  challenges: readonly Challenge[] | null;
  /**
   * The attempt the challenges belong to. A capture runs once per attempt: when the camera
   * comes back (a switch, a retry) it waits for a new one, asked for through `onReady`.
   */
  attemptKey: string | null;
  strings: LivenessStrings;
  /** Under the oval while no attempt runs (the server checking one); "Starting…" otherwise. */
  waiting?: string;
  /** The server's answer to a failed attempt another may follow: its reason and "Try again". */
  retry?: (AttemptRetry & { onTryAgain(): void }) | null;
  /** The node's time limit; the capture ends with `timeout` when it runs out. */
  timeoutSeconds?: number;
  /** The camera is live and the detector loaded: the first time, and after each camera change. */
  onReady(): void;
  /** Each frame, as soon as it is encoded, in the order taken. */
  onFrame(frame: CapturedFrame, attemptKey: string): void;
  /**
   * The capture is over: every challenge shown (`done`), the node's time ran out (`timeout`), or
   * the camera stopped during it (`cameraLost`). Called after the last `onFrame` of the attempt.
   */
  onDone(ended: CaptureEnd, attemptKey: string): void;
  /** No usable camera (none, or the detector cannot run): the node ends `cameraUnavailable`. */
  onCameraUnavailable(kind: CameraErrorKind | 'detector'): void;
  /** Words the guide says: each challenge as it is shown, and the blink when the watch begins. */
  onSay?(text: string): void;
  /** Tuning for tests and harnesses. */
  runOptions?: Partial<RunOptions>;
  /** The camera's stream each time a camera goes live (the session recording starts from it). */
  onStream?(stream: MediaStream): void;
  /** The user asked for another camera; called before the current one is let go. */
  onSwitchCamera?(): void;
}

/**
 * The camera part of the camera nodes (liveness_detection, face_scan): the preview (mirrored like
 * a mirror), the oval with the one current instruction under it, an arrow for each movement,
 * "Movement n of m" (without challenges, "Now blink once." while the page watches for a blink),
 * and after a failed attempt its reason with "Try again". Frames are handed over one by one as
 * they are taken (`captureLoop.ts`), so they are uploaded during the challenges. It decides
 * nothing: the server analyses the frames. Nothing blinks or flashes. On
 * a phone it is the capture view: it fills the screen and the transcript folds away (capture.css).
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
  const loop = useRef<ReturnType<typeof startCaptureLoop> | null>(null);
  // The callbacks and words may change identity on every render of the screen; the loop reads
  // the latest through a ref rather than restarting.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  const error = cameraState.status === 'error' ? cameraState.kind : null;
  useEffect(() => {
    if (error === 'missing') latest.current.onCameraUnavailable('missing');
    // A camera lost during the challenges ends the attempt with what it has.
    if (error) loop.current?.cameraLost();
  }, [error]);

  useEffect(() => {
    let closed = false;
    let loaded: LiveFaceDetector | undefined;
    takeFaceDetector().then(
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
    if (!detector || !live || !video || !attemptKey || challengeKey === null) {
      setPhase('waiting');
      return;
    }
    if (ran.current.has(attemptKey)) return;
    ran.current.add(attemptKey);
    const key = attemptKey;
    const challenges = challengeKey.split(',').filter(Boolean) as Challenge[];
    setPhase('aligning');
    setChallengeIndex(0);
    const started = startCaptureLoop({
      video,
      detector,
      challenges,
      settings: () => {
        const p = latest.current;
        return {
          strings: p.strings,
          ...(p.timeoutSeconds ? { timeoutSeconds: p.timeoutSeconds } : {}),
          ...(p.runOptions ? { runOptions: p.runOptions } : {}),
        };
      },
      onView: (view) => {
        setPhase(view.phase);
        setChallengeIndex(view.index);
        if (view.oval) setOval(view.oval);
        if (view.message) setMessage(view.message);
      },
      onChallenge: (challenge) =>
        latest.current.onSay?.(latest.current.strings.challenges[challenge]),
      onWatching: () => latest.current.onSay?.(latest.current.strings.blink),
      onFrame: (frame) => latest.current.onFrame(frame, key),
      onDone: (ended) => latest.current.onDone(ended, key),
    });
    loop.current = started;
    return () => {
      started.stop();
      if (loop.current === started) loop.current = null;
    };
  }, [detector, live, attemptKey, challengeKey, videoRef]);

  const running = Boolean(detector && attemptKey && phase !== 'waiting');
  const total = props.challenges?.length ?? 0;
  const challenge =
    running && phase === 'challenge' ? props.challenges?.[challengeIndex] : undefined;
  const retryOffer = props.retry ?? null;
  const shownMessage = running ? message : (props.waiting ?? props.strings.loading);
  return (
    <div
      className="capture"
      data-testid="liveness-capture"
      data-camera={cameraState.status}
      data-detector={detectorFailed ? 'failed' : detector ? 'ready' : 'loading'}
      data-run={running ? phase : 'waiting'}
      data-challenge={challenge}
    >
      <div className="capture-stage" data-orientation={orientation}>
        <video
          ref={videoRef}
          className={`capture-video${mirrored ? ' capture-mirrored' : ''}`}
          autoPlay
          muted
          playsInline
          aria-hidden="true"
        />
        {error || retryOffer ? null : (
          <OvalGuide state={running ? oval : 'searching'} message={shownMessage} />
        )}
        {challenge && !retryOffer ? <ChallengeCue challenge={challenge} /> : null}
        {retryOffer ? (
          <RetryPanel
            heading={props.strings.retryHeading}
            reason={retryText(props.strings, retryOffer)}
            reasonKey={retryOffer.reason}
            left={props.strings.attemptsLeft(retryOffer.attemptsLeft)}
            tryAgain={props.strings.retry}
            onTryAgain={() => {
              // A camera that stopped is asked for again with the next attempt.
              if (error) retry();
              retryOffer.onTryAgain();
            }}
          />
        ) : null}
      </div>
      {running && phase === 'challenge' && total > 0 ? (
        <p className="capture-progress" data-testid="liveness-progress">
          {props.strings.progress(Math.min(challengeIndex + 1, total), total)}
        </p>
      ) : null}
      {error && !retryOffer ? (
        <CameraErrorNotice
          kind={error}
          messages={props.strings.cameraErrors}
          denialHelp={props.strings.denialHelp}
          retryLabel={props.strings.retry}
          onRetry={retry}
        />
      ) : null}
      {canSwitch && !error ? (
        <div className="actions capture-actions">
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
