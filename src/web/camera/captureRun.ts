import {
  guide,
  measureChallenge,
  type ChallengeMeasure,
  type ChallengeThresholds,
  type Challenge,
  type FaceObservation,
  type FrameSize,
  type Hint,
} from '../../core/liveness';

/** How a frame is labelled in the evidence (the server's `EvidenceFrame.role`). */
export type FrameRole = 'baseline' | 'challenge' | 'between';

export interface CaptureLabel {
  role: FrameRole;
  /** For `challenge` frames: which challenge was shown. */
  challengeIndex?: number;
}

export interface RunOptions {
  /** How long the face must fit the oval before the baseline frame is taken. */
  steadyMs: number;
  /** Least time between two `between` frames. */
  betweenMs: number;
  /** Most `between` frames in one attempt (they cost upload and server time). */
  maxBetween: number;
  /**
   * Most `between` frames taken while the face does not yet fit the oval, `betweenMs` apart. An
   * attempt that never gets there (no face, a face the page misses) still sends the server
   * something to decide on (`noFace`, `multipleFaces`) instead of nothing at all.
   */
  maxAligning: number;
  /** The node's time limit, from the first frame seen; the evidence goes as it is then. */
  timeoutMs: number;
  /** Faces under this score do not count (same as guidance). */
  minScore: number;
  /**
   * How long one challenge is shown before the page moves on to the next without it: the page
   * never blocks the user on its own reading, the server decides from the frames.
   */
  challengeMs: number;
  /**
   * Most extra `challenge` frames per challenge taken on the way (each time the movement gets
   * clearly further than before, from half of what is needed), so a challenge the page's coarse
   * keypoints do not see as met still reaches the server with its best frames.
   */
  maxCandidates: number;
  /**
   * How long a met challenge stays shown. People (and the passing fixture) go on moving past the
   * point where the page first sees the challenge met and hold the pose there; a frame taken at
   * the end of the hold, when the movement has clearly grown, is the one the server reads best.
   */
  holdMs: number;
  /**
   * Least detector readings a hold lasts, however long they take: a slow phone reads a few
   * frames a second, and the frame at the end of the hold must still be one the user held.
   */
  holdReadings: number;
  /**
   * How long a capture without challenges goes on after the baseline. One frame cannot tell a
   * person from a photo cut out and held still in the oval; a few seconds of frames can show the
   * eyes close (docs/decisions.md, "A face_scan without challenges…"). People blink every few
   * seconds, and the page asks for one: 3 s leaves time to read the words and blink.
   */
  watchMs: number;
  /**
   * Time between two frames of the watch. The fixtures' blinks stay closed 333 ms, so a frame
   * every 200 ms always sees one; a person's lids are fully down for 100–300 ms, so a quick blink
   * can fall between two frames, and the retry says why and asks again. Frames are taken on this
   * schedule, not this far apart, so a detector reading every 33 ms keeps the average; a slower
   * one takes a frame at every reading.
   */
  watchEveryMs: number;
  /** Most frames of the watch (watchMs / watchEveryMs): they count against `maxFrames`. */
  maxWatch: number;
  /** The page's thresholds for `measureChallenge` (the core's defaults otherwise). */
  thresholds?: Partial<ChallengeThresholds>;
}

export const DEFAULT_RUN: RunOptions = {
  steadyMs: 600,
  betweenMs: 800,
  maxBetween: 6,
  maxAligning: 3,
  timeoutMs: 60_000,
  minScore: 0.5,
  challengeMs: 10_000,
  maxCandidates: 2,
  holdMs: 600,
  holdReadings: 3,
  watchMs: 3000,
  watchEveryMs: 200,
  maxWatch: 15,
};

export interface RunState {
  /** `watching`: after the baseline of a capture without challenges (`watchMs`). */
  phase: 'aligning' | 'challenge' | 'watching' | 'done';
  /**
   * Why the run ended, once `done`: `completed` when every challenge was met or given up on
   * after `challengeMs` (or the watch is over), `timeout` when the node's time limit ran out.
   */
  ended?: 'completed' | 'timeout';
  startedAt?: number;
  readySince?: number;
  baseline?: FaceObservation;
  /** The challenge being shown (index into the challenges). */
  index: number;
  lastCaptureAt?: number;
  betweenCount: number;
  aligningCount: number;
  /** When the current challenge was first shown. */
  challengeSince?: number;
  /** Best progress (1 = met) towards the current challenge that was captured. */
  best: number;
  /** Extra frames taken for the current challenge. */
  candidates: number;
  /** When the current challenge was seen met; the run holds it for `holdMs`. */
  metAt?: number;
  /** Detector readings since the current challenge was seen met. */
  heldReadings?: number;
  /** When the watch began (the baseline's time). */
  watchSince?: number;
  /** Frames taken during the watch. */
  watchCount: number;
}

export const INITIAL_RUN: RunState = {
  phase: 'aligning',
  index: 0,
  betweenCount: 0,
  aligningCount: 0,
  best: 0,
  candidates: 0,
  watchCount: 0,
};

/** How far along a challenge a measure is: 0 at the baseline, 1 when met. */
function progressOf(challenge: Challenge, m: ChallengeMeasure): number {
  if (m.refused) return 0;
  // comeCloser measures a size ratio, 1 at the baseline; the others start at 0.
  if (challenge === 'comeCloser') return (m.value - 1) / (m.needed - 1);
  return m.value / m.needed;
}

export interface RunFrame {
  faces: readonly FaceObservation[];
  frame: FrameSize;
  /** Mean luma 0–255 (see `meanBrightness`); the last value measured is fine. */
  brightness: number;
  /** Milliseconds, any monotonic clock. */
  now: number;
}

export interface RunStep {
  state: RunState;
  /**
   * Hints to show now: the oval's while aligning, only the blocking ones during challenges and
   * the watch.
   */
  hints: Hint[];
  /** Set when this frame should be captured, with its label. */
  capture?: CaptureLabel;
}

// During challenges the user moves on purpose (coming closer, turning), so the placement hints
// would contradict the challenge; only what makes the frames useless is still said. The same
// during the watch: a head that moves a little while blinking is no reason to interrupt.
const BLOCKING: readonly Hint[] = ['noFace', 'onePerson', 'moreLight'];

/**
 * One step of a liveness attempt on the page: wait until the face fits the oval for a moment,
 * take the frontal baseline frame, then show each challenge in turn until a frame meets it
 * (`challengeMet` against the baseline), taking a frame at each challenge and a few between.
 * Without challenges, it watches for `watchMs` after the baseline, a `between` frame every
 * `watchEveryMs`, in which the server looks for a blink. The page only collects evidence: the
 * server analyses the frames and decides.
 *
 * @example
 * let run = INITIAL_RUN;
 * const step = advanceRun(run, { faces, frame, brightness, now }, ['turnLeft', 'comeCloser']);
 * run = step.state;
 * if (step.capture) captureFrame(step.capture);
 */
export function advanceRun(
  state: RunState,
  input: RunFrame,
  challenges: readonly Challenge[],
  options: Partial<RunOptions> = {},
): RunStep {
  const o = { ...DEFAULT_RUN, ...options };
  if (state.phase === 'done') return { state, hints: [] };
  const startedAt = state.startedAt ?? input.now;
  const s: RunState = { ...state, startedAt };
  const guidance = guide(input.faces, input.frame, input.brightness, { minScore: o.minScore });
  if (input.now - startedAt > o.timeoutMs) {
    return { state: { ...s, phase: 'done', ended: 'timeout' }, hints: [] };
  }

  if (s.phase === 'aligning') {
    if (!guidance.ready) {
      const due = input.now - (s.lastCaptureAt ?? -Infinity) >= o.betweenMs;
      if (due && s.aligningCount < o.maxAligning) {
        return {
          state: {
            ...s,
            readySince: undefined,
            lastCaptureAt: input.now,
            aligningCount: s.aligningCount + 1,
          },
          hints: guidance.hints,
          capture: { role: 'between' },
        };
      }
      return { state: { ...s, readySince: undefined }, hints: guidance.hints };
    }
    const readySince = s.readySince ?? input.now;
    if (input.now - readySince < o.steadyMs) {
      return { state: { ...s, readySince }, hints: [] };
    }
    const watch = o.watchMs > 0 && o.maxWatch > 0;
    const next: RunState = {
      ...s,
      readySince,
      phase: challenges.length > 0 ? 'challenge' : watch ? 'watching' : 'done',
      ...(challenges.length > 0 || watch ? {} : { ended: 'completed' as const }),
      baseline: input.faces.find((f) => (f.score ?? 1) >= o.minScore),
      lastCaptureAt: input.now,
      challengeSince: input.now,
      ...(challenges.length === 0 && watch ? { watchSince: input.now } : {}),
    };
    return { state: next, hints: [], capture: { role: 'baseline' } };
  }

  const hints = guidance.hints.filter((h) => BLOCKING.includes(h));
  if (s.phase === 'watching') return watchStep(s, input.now, hints, o);
  const face = input.faces.filter((f) => (f.score ?? 1) >= o.minScore);
  const challenge = challenges[s.index];
  const next = (): RunState => {
    const index = s.index + 1;
    const done = index >= challenges.length;
    return {
      ...s,
      index,
      challengeSince: input.now,
      best: 0,
      candidates: 0,
      metAt: undefined,
      heldReadings: undefined,
      ...(done ? { phase: 'done' as const, ended: 'completed' as const } : {}),
    };
  };
  const measure =
    face.length === 1 && challenge && s.baseline
      ? measureChallenge(challenge, s.baseline, face[0]!, o.thresholds)
      : null;
  if (s.metAt !== undefined) {
    const heldReadings = (s.heldReadings ?? 0) + 1;
    const progress = measure && challenge ? progressOf(challenge, measure) : 0;
    // The movement still growing is the frame the server reads best: on a slow device the first
    // reading that met it may be early on the way there, and the last of the hold on the way back.
    // Within `runBudget`'s share of a challenge (the frame that met it and 1 + maxCandidates
    // more), and half a hold apart, so that a fast device's ramp does not use them all up.
    const grown =
      progress >= s.best + 0.1 &&
      s.candidates < o.maxCandidates + 1 &&
      input.now - (s.lastCaptureAt ?? s.metAt) >= o.holdMs / 2;
    const shot = grown
      ? {
          capture: { role: 'challenge' as const, challengeIndex: s.index },
          bump: { best: progress, candidates: s.candidates + 1, lastCaptureAt: input.now },
        }
      : null;
    if (input.now - s.metAt < o.holdMs || heldReadings < o.holdReadings) {
      return {
        state: { ...s, heldReadings, ...shot?.bump },
        hints,
        ...(shot ? { capture: shot.capture } : {}),
      };
    }
    return {
      state: { ...next(), ...(shot ? { lastCaptureAt: input.now } : {}) },
      hints,
      ...(shot ? { capture: shot.capture } : {}),
    };
  }
  if (measure && challenge) {
    const m = measure;
    if (m.met) {
      return {
        state: {
          ...s,
          metAt: input.now,
          heldReadings: 0,
          best: progressOf(challenge, m),
          lastCaptureAt: input.now,
        },
        hints,
        capture: { role: 'challenge', challengeIndex: s.index },
      };
    }
    const progress = progressOf(challenge, m);
    if (progress >= 0.5 && progress >= s.best + 0.2 && s.candidates < o.maxCandidates) {
      return {
        state: { ...s, best: progress, candidates: s.candidates + 1, lastCaptureAt: input.now },
        hints,
        capture: { role: 'challenge', challengeIndex: s.index },
      };
    }
  }
  if (input.now - (s.challengeSince ?? input.now) > o.challengeMs) {
    return { state: next(), hints };
  }
  const due = input.now - (s.lastCaptureAt ?? startedAt) >= o.betweenMs;
  if (due && face.length > 0 && s.betweenCount < o.maxBetween) {
    return {
      state: { ...s, lastCaptureAt: input.now, betweenCount: s.betweenCount + 1 },
      hints,
      capture: { role: 'between' },
    };
  }
  return { state: s, hints };
}

/**
 * A reading during the watch. Frames fall on a schedule (`watchEveryMs` after the baseline, then
 * each step after): the first reading at or past a step takes one frame, however many steps it is
 * late, so a slow device takes a frame at every reading and a hitch never bunches frames up. The
 * face is not checked: no face or two are for the server to judge, as during challenges.
 */
function watchStep(s: RunState, now: number, hints: Hint[], o: RunOptions): RunStep {
  const since = s.watchSince ?? now;
  const step = Math.floor(((s.lastCaptureAt ?? since) - since) / o.watchEveryMs) + 1;
  const due = now >= since + step * o.watchEveryMs && s.watchCount < o.maxWatch;
  const watchCount = s.watchCount + (due ? 1 : 0);
  const over = now - since >= o.watchMs || watchCount >= o.maxWatch;
  const state: RunState = {
    ...s,
    watchCount,
    ...(due ? { lastCaptureAt: now } : {}),
    ...(over ? { phase: 'done' as const, ended: 'completed' as const } : {}),
  };
  return { state, hints, ...(due ? { capture: { role: 'between' as const } } : {}) };
}
