/**
 * Small helpers over the analyzer's per-frame results, shared by the report parts.
 */
import type { FrameAnalysis, FrameFailure } from '../face-analysis/analyzer';

/**
 * Cosine similarity above which two of `human`'s face embeddings are taken for one person here.
 * The face-matching nodes have their own measured default (docs/faces.md); this one only weighs
 * video criteria, which report a score and a confidence rather than a verdict.
 */
export const SAME_PERSON_COSINE = 0.6;

/** Frames with a usable analysis; unreadable ones (`{ error }`) dropped. */
export function readable(
  frames: readonly (FrameAnalysis | FrameFailure | null)[],
): FrameAnalysis[] {
  return frames.filter((f): f is FrameAnalysis => f !== null && !('error' in f));
}

/**
 * The q-quantile (0–1) of a list by nearest rank; NaN when empty.
 *
 * @example
 * quantile([1, 2, 3, 4, 5], 0.5); // 3
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!;
}

/** Two decimals: scores are estimates, more digits would claim a precision they lack. */
export const round2 = (x: number): number => Math.round(x * 100) / 100;
