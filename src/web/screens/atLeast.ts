/**
 * The answer of `work`, but not before `ms` have passed: a "checking" state that would otherwise
 * blink for a few milliseconds stays long enough to be read. A failure is not held back.
 *
 * @example
 * const { position } = await atLeast(api.run(nodeId), 800);
 */
export async function atLeast<T>(
  work: Promise<T>,
  ms: number,
  wait: (ms: number) => Promise<void> = (n) => new Promise((resolve) => setTimeout(resolve, n)),
): Promise<T> {
  const [answer] = await Promise.all([work, wait(ms)]);
  return answer;
}
