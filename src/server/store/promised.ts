/**
 * `T` with every method answering a promise: the shape shared by a SQLite module (better-sqlite3
 * answers at once) and its PostgreSQL twin (every call a round trip), so a caller awaits either.
 */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/**
 * Wraps a synchronous store module's methods so they answer promises (`Promised<T>`).
 *
 * @example
 * const queue = promised(sqliteJobQueue(db));
 * await queue.claim(Date.now(), 30_000);
 */
export function promised<T extends object>(module: T): Promised<T> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function') {
      out[name] = async (...args: unknown[]) => (value as (...a: unknown[]) => unknown)(...args);
    }
  }
  return out as Promised<T>;
}
