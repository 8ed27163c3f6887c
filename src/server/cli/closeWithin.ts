/**
 * Closes, but waits at most `ms`: `'closed'`, `'failed'` when closing threw, `'late'` when it
 * was still going. A shutdown that waits for a long job in hand would otherwise outlast the
 * patience of whatever stops the process (a container runtime, a test's hook) and end in a
 * SIGKILL anyway; an unfinished job's lease runs out and it runs again at the next start.
 *
 * @example
 * const how = await closeWithin(() => server.close(), 10_000);
 * process.exit(how === 'closed' ? 0 : 1);
 */
export async function closeWithin(
  close: () => Promise<void>,
  ms: number,
): Promise<'closed' | 'failed' | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([
      close().then(
        () => 'closed' as const,
        () => 'failed' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
