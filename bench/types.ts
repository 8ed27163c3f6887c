/** One figure a benchmark measured, printed by `npm run bench`. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** What the issue asks for, e.g. "< 2 ms". Shown beside the figure, never asserted. */
  target?: string;
}

/** Median and p90 of a list of samples (milliseconds or anything else). */
export function summarize(samples: number[]): { median: number; p90: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p90: at(0.9), p99: at(0.99) };
}
