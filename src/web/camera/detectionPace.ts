/**
 * How often the page runs its face detector. On a fast device every new camera frame is read; on
 * a slow one (an old phone, a CPU throttled four times) one detection can take most of a frame's
 * time, and reading every frame would leave nothing for encoding and uploading the frames, the
 * screen and the browser: the detector then waits after each reading as long as readings have
 * been taking, so it keeps at most about half of the time.
 */

export interface Pace {
  /** Smoothed cost of one reading (drawing the frame, detecting, deciding), ms; 0 before any. */
  costMs: number;
  /** No reading before this time (same clock as the readings). */
  next: number;
}

export interface PaceOptions {
  /** Share of the time the readings may take. */
  share: number;
  /** Weight of the newest cost in the smoothed one. */
  smoothing: number;
  /** Longest wait between two readings, whatever they cost. */
  maxGapMs: number;
}

export const DEFAULT_PACE: PaceOptions = { share: 0.5, smoothing: 0.3, maxGapMs: 400 };
export const INITIAL_PACE: Pace = { costMs: 0, next: 0 };

/**
 * The pace after a reading that ran from `start` to `end`.
 *
 * @example
 * let pace = INITIAL_PACE;
 * pace = paceAfter(pace, 0, 60); // a 60 ms reading: the next one not before 120
 */
export function paceAfter(
  pace: Pace,
  start: number,
  end: number,
  options: Partial<PaceOptions> = {},
): Pace {
  const o = { ...DEFAULT_PACE, ...options };
  const cost = Math.max(0, end - start);
  const costMs = pace.costMs === 0 ? cost : pace.costMs + o.smoothing * (cost - pace.costMs);
  const gap = Math.min(o.maxGapMs, costMs * (1 / o.share - 1));
  return { costMs, next: end + gap };
}

/**
 * Whether a reading may run now.
 *
 * @example
 * readingDue(pace, performance.now());
 */
export function readingDue(pace: Pace, now: number): boolean {
  return now >= pace.next;
}
