/**
 * Pure parts of `measure-similarity.ts`: pairs of captures, their summary per kind of pair, the
 * error rates at candidate thresholds, and the threshold chosen from them.
 */

/** One compared pair. */
export interface ScoredPair {
  same: boolean;
  /** e.g. "astronaut: mirrored" for a same pair, "astronaut × cameraman" for a different one. */
  label: string;
  similarity: number;
}

/** Every unordered pair of items, each once. */
export function pairsOf<T>(items: readonly T[]): [T, T][] {
  const out: [T, T][] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) out.push([items[i]!, items[j]!]);
  }
  return out;
}

export interface RateRow {
  threshold: number;
  /** Same-person pairs under the threshold (would be refused), as a fraction. */
  falseReject: number;
  /** Different-person pairs at or over it (would be accepted), as a fraction. */
  falseAccept: number;
}

/**
 * Error rates at each threshold: same pairs below it, different pairs at or above it.
 *
 * @example
 * rates([{ same: true, label: 'a', similarity: 0.8 }, { same: false, label: 'b', similarity: 0.2 }], [0.5]);
 * // [{ threshold: 0.5, falseReject: 0, falseAccept: 0 }]
 */
export function rates(pairs: readonly ScoredPair[], thresholds: readonly number[]): RateRow[] {
  const same = pairs.filter((p) => p.same);
  const diff = pairs.filter((p) => !p.same);
  const frac = (n: number, d: number) => (d === 0 ? 0 : n / d);
  return thresholds.map((threshold) => ({
    threshold,
    falseReject: frac(same.filter((p) => p.similarity < threshold).length, same.length),
    falseAccept: frac(diff.filter((p) => p.similarity >= threshold).length, diff.length),
  }));
}

export interface ThresholdChoice {
  threshold: number;
  /** Lowest same-person similarity and highest different-person similarity of the set. */
  sameMin: number;
  differentMax: number;
  separated: boolean;
  why: string;
}

/**
 * The default threshold from a measured set. When the set separates (every same pair above every
 * different pair) it is the midpoint of the gap, rounded to the nearest `step`, so that both sides
 * keep a margin for what the set does not hold. When it does not, it is the lowest threshold that accepts
 * no different pair (a wrong match costs more than a retry), rounded up to `step`.
 *
 * @example
 * chooseThreshold([{ same: true, label: 'a', similarity: 0.9 }, { same: false, label: 'b', similarity: 0.3 }]).threshold; // 0.6
 */
export function chooseThreshold(pairs: readonly ScoredPair[], step = 0.05): ThresholdChoice {
  const same = pairs.filter((p) => p.same).map((p) => p.similarity);
  const diff = pairs.filter((p) => !p.same).map((p) => p.similarity);
  if (same.length === 0 || diff.length === 0) {
    throw new Error('a threshold needs both same-person and different-person pairs');
  }
  const sameMin = Math.min(...same);
  const differentMax = Math.max(...diff);
  const round = (v: number, f: (x: number) => number) => Number((f(v / step) * step).toFixed(4));
  if (sameMin > differentMax) {
    const mid = (sameMin + differentMax) / 2;
    let threshold = round(mid, Math.round);
    if (threshold <= differentMax || threshold > sameMin) threshold = Number(mid.toFixed(3));
    return {
      threshold,
      sameMin,
      differentMax,
      separated: true,
      why: `the set separates: every same-person pair ≥ ${sameMin.toFixed(3)}, every different-person pair ≤ ${differentMax.toFixed(3)}; the midpoint ${mid.toFixed(3)}, rounded to ${step}`,
    };
  }
  let threshold = round(differentMax, Math.ceil);
  if (threshold <= differentMax) threshold = Number((threshold + step).toFixed(4));
  return {
    threshold,
    sameMin,
    differentMax,
    separated: false,
    why: `the set overlaps (same-person down to ${sameMin.toFixed(3)}, different-person up to ${differentMax.toFixed(3)}): the lowest threshold that accepts no different-person pair`,
  };
}

/** min, median and max of a list. */
export function spread(values: readonly number[]): { min: number; median: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { min: s[0] ?? NaN, median, max: s[s.length - 1] ?? NaN };
}
