import type { Database } from 'better-sqlite3';

/** How stale the store's read caches may get with respect to other processes' writes. */
export const KEY_RECHECK_MS = 200;

/** Notices commits of other connections (the CLI, another process, the create writer). */
export interface OtherWriters {
  /** Drops every registered cache when another connection has committed since last asked. */
  check(): void;
  /** Registers a cache's `drop`. */
  onCommit(drop: () => void): void;
}

/**
 * Watches `PRAGMA data_version`, which changes when another connection commits. Asking SQLite
 * costs as much as a lookup, so it is asked at most every `KEY_RECHECK_MS`: a key revoked from
 * the command line is refused within that time.
 *
 * @example
 * const writers = watchOtherWriters(db);
 * writers.onCommit(() => cache.clear());
 * writers.check(); // before each cached read
 */
export function watchOtherWriters(db: Database): OtherWriters {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const drops: (() => void)[] = [];
  let version = -1;
  let checkedAt = -Infinity;
  return {
    check() {
      const now = Date.now();
      if (now - checkedAt < KEY_RECHECK_MS && now >= checkedAt) return;
      checkedAt = now;
      const v = dataVersion.get() as number;
      if (v === version) return;
      version = v;
      for (const drop of drops) drop();
    },
    onCommit(drop) {
      drops.push(drop);
    },
  };
}
