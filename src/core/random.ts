/**
 * A seeded pseudo-random generator (mulberry32): small, fast and the same numbers on every
 * machine, so that a test case, a fixture or a synthetic document can be made again from its seed.
 * Not for secrets: ids and codes use the platform's cryptographic generator.
 *
 * @example
 * const next = seededRandom(42);
 * next(); // a number in [0, 1), the same on every run
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
