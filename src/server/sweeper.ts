import type { Clock } from './clock';
import { endIncomplete } from './flow/runtime';
import type { Retention } from './lifecycle/retention';
import { DEFAULT_SESSION_TIMEOUTS, type SessionTimeouts } from './sessions/timeouts';
import type { SessionStore } from './store/types';

export interface Sweeper {
  /** Ends every session whose timeout has passed; returns how many it ended. */
  runOnce(): Promise<number>;
  start(intervalMs: number): void;
  stop(): void;
}

/**
 * Ends sessions by their timeouts (decisions.md, "States and their end"): a `created` session
 * never opened for `unopenedMs` (24 hours), an `inProgress` one idle for `idleMs` (30 minutes).
 * Each end is a status change, so the store writes its `session.status` event with it. Expired
 * idempotency keys are deleted on the same round, and, with a `retention`, the media and
 * sessions it says are due (docs/lifecycle.md), `batch` at a time.
 *
 * @example
 * const sweeper = createSweeper(store, clock, DEFAULT_SESSION_TIMEOUTS);
 * await sweeper.runOnce(); // 0 when nothing has timed out
 */
export function createSweeper(
  store: SessionStore,
  clock: Clock,
  timeouts: SessionTimeouts = DEFAULT_SESSION_TIMEOUTS,
  batch = 500,
  retention: Retention | null = null,
): Sweeper {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function sweep(): Promise<number> {
    // Idempotency keys past their 24 hours are also dropped here (a later create would replace one
    // anyway; this keeps the table from growing with keys never reused).
    while ((await store.purgeIdempotencyKeys(clock.now(), batch)) === batch);
    let ended = 0;
    for (;;) {
      const now = clock.now();
      const due = await store.listTimedOut(now - timeouts.unopenedMs, now - timeouts.idleMs, batch);
      let progressed = 0;
      for (const s of due) {
        // A session touched since it was listed fails the revision check and is left alone.
        if (await store.updateSession(s, endIncomplete(s, now, 'timedOut'), now)) {
          ended++;
          progressed++;
        }
      }
      if (due.length < batch || progressed === 0) break;
    }
    // After the timeouts: a session they just ended counts from now, not from before.
    if (retention) await retention.runOnce(batch);
    return ended;
  }

  return {
    runOnce() {
      running ??= sweep().finally(() => {
        running = null;
      });
      return running;
    },
    start(intervalMs) {
      if (timer || intervalMs <= 0) return;
      timer = setInterval(() => {
        this.runOnce().catch(() => {});
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
