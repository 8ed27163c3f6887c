/** The message under the oval and one waiting to replace it. */
export interface HeldMessage {
  shown: string | null;
  /** A different message asked for since `since`, not yet shown. */
  waiting: string | null;
  since: number;
}

export const NO_MESSAGE: HeldMessage = { shown: null, waiting: null, since: 0 };

/**
 * Holds the hint under the oval steady: a new message replaces the shown one only once it has
 * been asked for without a break for `holdMs`. A detector that wavers between two readings
 * (no face, off centre, no face…) would otherwise change the words several times a second, and
 * the polite live region would read each one out. A new step (the next challenge) is shown at
 * once (`immediate`).
 *
 * @example
 * let held = NO_MESSAGE;
 * held = holdMessage(held, 'Move closer', 0);     // shown at once: nothing was shown
 * held = holdMessage(held, 'Centre', 100);        // still 'Move closer'
 * held = holdMessage(held, 'Centre', 700).shown;  // 'Centre'
 */
export function holdMessage(
  held: HeldMessage,
  wanted: string,
  now: number,
  options: { holdMs?: number; immediate?: boolean } = {},
): HeldMessage {
  const holdMs = options.holdMs ?? 600;
  if (held.shown === null || options.immediate) return { shown: wanted, waiting: null, since: now };
  if (wanted === held.shown) return held.waiting === null ? held : { ...held, waiting: null };
  if (wanted !== held.waiting) return { shown: held.shown, waiting: wanted, since: now };
  if (now - held.since >= holdMs) return { shown: wanted, waiting: null, since: now };
  return held;
}
