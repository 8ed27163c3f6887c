import type { Challenge } from '../../core/liveness';
import { advanceRun, INITIAL_RUN, type RunOptions, type RunState } from './captureRun';
import type { LiveFaceDetector } from './detector';
import { INITIAL_PACE, paceAfter, readingDue } from './detectionPace';
import { brightnessOf, copyFrame, encodeJpeg } from './grabFrame';
import type { CapturedFrame, LivenessStrings } from './LivenessCapture';
import type { CaptureEnd } from './livenessState';
import { holdMessage, NO_MESSAGE } from './messageHold';
import type { OvalState } from './OvalGuide';

/** What the capture view shows at a moment of the attempt. */
export interface LoopView {
  phase: RunState['phase'];
  /** The challenge shown (index into the challenges). */
  index: number;
  /** The oval's colour and the words under it, once they have held (`messageHold`). */
  oval?: OvalState;
  message?: string;
}

export interface LoopSettings {
  strings: LivenessStrings;
  timeoutSeconds?: number;
  runOptions?: Partial<RunOptions>;
}

export interface CaptureLoopArgs {
  video: HTMLVideoElement;
  detector: LiveFaceDetector;
  challenges: readonly Challenge[];
  /** The latest words and options (they may change while the attempt runs: a new language). */
  settings(): LoopSettings;
  onView(view: LoopView): void;
  /** A challenge is shown for the first time (the guide says it). */
  onChallenge(challenge: Challenge, index: number): void;
  /** The watch for a blink begins, in a capture without challenges (the guide says it). */
  onWatching(): void;
  /** Each captured frame once encoded, in the order taken. */
  onFrame(frame: CapturedFrame): void;
  /** After the last frame: every challenge shown, out of time, or the camera lost. */
  onDone(ended: CaptureEnd): void;
}

export interface CaptureLoop {
  /** The attempt is left (a new attempt, the screen gone): nothing more is handed over. */
  stop(): void;
  /** The camera stopped during the capture: what was taken goes, then `onDone('cameraLost')`. */
  cameraLost(): void;
}

/**
 * Runs one attempt on a live camera. On each new camera frame, as the detection pace allows
 * (`detectionPace.ts`: fewer readings on a slow device), the frame is copied once into a canvas;
 * the detector reads that copy, the run advances (`advanceRun`), and a frame the run captures is
 * that same copy encoded as JPEG, so the server gets exactly the pixels the page measured (on a
 * slow device the video has moved on by the time a reading ends).
 *
 * @example
 * const loop = startCaptureLoop({ video, detector, challenges, settings: () => props, onView,
 *   onChallenge, onWatching, onFrame, onDone });
 * // later: loop.stop();
 */
export function startCaptureLoop(args: CaptureLoopArgs): CaptureLoop {
  const { video, detector, challenges } = args;
  const canvas = document.createElement('canvas');
  const small = document.createElement('canvas');
  // Frames are handed over in the order taken, each once encoded; the end comes after them.
  let delivered: Promise<void> = Promise.resolve();
  let run = INITIAL_RUN;
  let pace = INITIAL_PACE;
  let held = NO_MESSAGE;
  let shownPhase: RunState['phase'] | undefined;
  let shownIndex = -1;
  let startedAt: number | undefined;
  let brightness = 255;
  let count = 0;
  let lastVideoTime = -1;
  let raf = 0;
  let finished = false;
  let abandoned = false;

  const finish = (ended: CaptureEnd) => {
    finished = true;
    cancelAnimationFrame(raf);
    // After the frames still being encoded.
    void delivered.then(() => {
      if (!abandoned) args.onDone(ended);
    });
  };

  const tick = () => {
    if (finished || abandoned) return;
    raf = requestAnimationFrame(tick);
    // Only new camera frames are worth the detector's time, and only as often as it can afford.
    if (video.readyState < 2 || video.currentTime === lastVideoTime) return;
    const now = performance.now();
    if (!readingDue(pace, now)) return;
    lastVideoTime = video.currentTime;
    startedAt ??= now;
    copyFrame(video, canvas);
    if (count++ % 5 === 0) brightness = brightnessOf(canvas, small);
    const { faces } = detector.detect(canvas, now);
    const s = args.settings();
    const step = advanceRun(
      run,
      { faces, brightness, now, frame: { width: canvas.width, height: canvas.height } },
      challenges,
      {
        ...(s.timeoutSeconds ? { timeoutMs: s.timeoutSeconds * 1000 } : {}),
        ...s.runOptions,
      },
    );
    run = step.state;
    if (step.capture) {
      const t = Math.round(now - startedAt);
      const label = step.capture;
      // toBlob copies the canvas now; the encoding finishes later.
      const encoded = encodeJpeg(canvas).then(
        (blob): CapturedFrame => ({ ...label, blob, t }),
        () => null,
      );
      delivered = delivered.then(async () => {
        const frame = await encoded;
        // A frame that fails to encode is left out rather than holding back the others.
        if (frame && !abandoned) args.onFrame(frame);
      });
    }
    pace = paceAfter(pace, now, performance.now());
    const view = describe(run, step.hints[0], s.strings, challenges);
    if (run.phase === 'done') {
      args.onView({ phase: 'done', index: run.index, oval: 'done', message: s.strings.done });
      finish(run.ended === 'timeout' ? 'timeout' : 'done');
      return;
    }
    // The words change at once with the step (the next challenge), and only after a steady
    // moment with the detector's reading.
    const immediate = run.phase !== shownPhase || run.index !== shownIndex;
    if (immediate && run.phase === 'challenge' && challenges[run.index]) {
      args.onChallenge(challenges[run.index]!, run.index);
    }
    if (immediate && run.phase === 'watching') args.onWatching();
    shownPhase = run.phase;
    shownIndex = run.index;
    // The oval's colour goes with its words, so a wavering reading does not flicker it either.
    held = holdMessage(held, `${view[0]}|${view[1]}`, now, { immediate });
    const out: LoopView = { phase: run.phase, index: run.index };
    if (held.shown !== null) {
      const cut = held.shown.indexOf('|');
      out.oval = held.shown.slice(0, cut) as OvalState;
      out.message = held.shown.slice(cut + 1);
    }
    args.onView(out);
  };
  raf = requestAnimationFrame(tick);

  return {
    stop() {
      abandoned = true;
      cancelAnimationFrame(raf);
    },
    cameraLost() {
      if (!finished && !abandoned) finish('cameraLost');
    },
  };
}

/** The oval's state and words for a step of the run. */
function describe(
  run: RunState,
  hint: keyof LivenessStrings['hints'] | undefined,
  s: LivenessStrings,
  challenges: readonly Challenge[],
): [OvalState, string] {
  if (run.phase === 'aligning') return hint ? ['searching', s.hints[hint]] : ['ready', s.holdStill];
  // The watch asks for something, like a challenge: the same colour, the one instruction.
  if (run.phase === 'watching') return ['challenge', hint ? s.hints[hint] : s.blink];
  const current = challenges[run.index];
  return ['challenge', hint ? s.hints[hint] : current ? s.challenges[current] : s.done];
}
