/**
 * In-process wake-ups for outbox rows a store commits away from its own connection (new sessions
 * go in on the create writer's thread, where the webhook service's TEMP trigger never fires).
 * Keyed by the store's database handle: whoever watches that handle hears of its commits.
 */
const listeners = new WeakMap<object, Set<() => void>>();

/**
 * Calls `listener` after each commit of outbox rows that `outboxCommitted(db)` reports. Returns a
 * function that stops it.
 *
 * @example
 * const stop = onOutboxCommit(store.db, () => dispatcher.notify());
 */
export function onOutboxCommit(db: object, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Reports that outbox rows were just committed for `db`. A listener that throws never reaches
 * the writer: its change is committed already.
 *
 * @example
 * await commit.write(rows);
 * outboxCommitted(db);
 */
export function outboxCommitted(db: object): void {
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener();
    } catch {
      // A failed wake-up only leaves the rows to the next poll.
    }
  }
}
