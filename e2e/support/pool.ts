/**
 * Runs `job` over `items`, `width` at a time, and returns the results in order: the fixture specs
 * play two fake cameras at once, each in its own browser.
 *
 * @example
 * await pool(['a.y4m', 'b.y4m', 'c.y4m'], 2, (f) => play(f)); // [reportA, reportB, reportC]
 */
export async function pool<T, R>(
  items: readonly T[],
  width: number,
  job: (t: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      out[k] = await job(items[k]!);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}
