import type { Gray } from './gray';

/**
 * The mean absolute difference between two small grey copies of consecutive frames (0–255);
 * `Infinity` when their sizes differ (a new camera), so that never counts as steady.
 *
 * @example
 * frameDifference(a, a); // 0
 */
export function frameDifference(a: Gray, b: Gray): number {
  if (a.width !== b.width || a.height !== b.height || a.data.length === 0) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

/** Since when the picture has held still (`null`: it is moving). */
export interface Steadiness {
  since: number | null;
}

/** Mean grey-level change between frames under which the hand counts as still. */
export const STEADY_DIFFERENCE = 6;

/**
 * The steadiness after one more frame: still frames keep the moment it began, a moving one
 * resets it.
 *
 * @example
 * let s: Steadiness = { since: null };
 * s = nextSteadiness(s, 1.2, 1000); // { since: 1000 }
 * s = nextSteadiness(s, 0.8, 1500); // { since: 1000 }: steady for 500 ms
 */
export function nextSteadiness(
  prev: Steadiness,
  difference: number,
  now: number,
  limit = STEADY_DIFFERENCE,
): Steadiness {
  if (!(difference <= limit)) return { since: null };
  return { since: prev.since ?? now };
}
