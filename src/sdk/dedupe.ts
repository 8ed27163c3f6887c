/**
 * De-duplication of webhook events by id. Delivery is at-least-once, so a receiver sees some
 * events twice (a retry after a lost acknowledgement, a dispatcher restart, a manual redelivery).
 */

/**
 * Where processed event ids are remembered. The memory store below forgets on restart and is per
 * process; in production give one backed by your database (a unique key on the event id) or Redis.
 */
export interface DeduplicationStore {
  /** Whether this event id was processed already. */
  has(eventId: string): boolean | Promise<boolean>;
  /** Remembers an id once its event was processed successfully. */
  add(eventId: string): void | Promise<void>;
}

export interface MemoryDeduplicationOptions {
  /** At most this many ids are kept; the oldest are forgotten first. Default 100,000. */
  maxEntries?: number;
  /**
   * How long an id is remembered. Default 72 hours: longer than the whole retry schedule
   * (about 7.4 hours) with room for a manual redelivery.
   */
  ttlMs?: number;
  /** Clock in unix ms, for tests. */
  now?: () => number;
}

/**
 * An in-memory de-duplication store with a size bound and an expiry.
 *
 * @example
 * const seen = createMemoryDeduplicationStore({ maxEntries: 10_000 });
 * if (!seen.has(event.id)) { process(event); seen.add(event.id); }
 */
export function createMemoryDeduplicationStore(
  opts: MemoryDeduplicationOptions = {},
): DeduplicationStore & { readonly size: number } {
  const maxEntries = opts.maxEntries ?? 100_000;
  const ttlMs = opts.ttlMs ?? 72 * 60 * 60 * 1000;
  const now = opts.now ?? Date.now;
  if (!(maxEntries > 0)) throw new Error('maxEntries must be positive');
  // A Map iterates in insertion order, so the first entries are the oldest: eviction is O(1).
  const expiries = new Map<string, number>();

  const evictExpired = (t: number) => {
    for (const [id, expiry] of expiries) {
      if (expiry > t) break;
      expiries.delete(id);
    }
  };

  return {
    get size() {
      evictExpired(now());
      return expiries.size;
    },
    has(eventId) {
      const t = now();
      evictExpired(t);
      const expiry = expiries.get(eventId);
      return expiry !== undefined && expiry > t;
    },
    add(eventId) {
      const t = now();
      evictExpired(t);
      expiries.delete(eventId); // re-insert at the end so its place matches its expiry
      expiries.set(eventId, t + ttlMs);
      while (expiries.size > maxEntries) {
        const oldest = expiries.keys().next();
        if (oldest.done) break;
        expiries.delete(oldest.value);
      }
    },
  };
}
