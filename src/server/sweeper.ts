import { IDLE_TIMEOUT_MS, UNOPENED_TIMEOUT_MS } from './client/service';
import type { Clock } from './clock';
import { endIncomplete } from './flow/runtime';
import type { SessionStore } from './store/types';

export interface Sweeper {
  /** Ends every session whose timeout has passed; returns how many it ended. */
  runOnce(): Promise<number>;
  start(intervalMs: number): void;
  stop(): void;
}

/**
 * Ends sessions by their timeouts (decisions.md, "Session end"): a `created` session never
 * opened for 24 hours, an `inProgress` one idle for 30 minutes. Each end is a status change, so
 * the store writes its `session.status` event with it.
 *
 * @example
 * const sweeper = createSweeper(store, clock);
 * await sweeper.runOnce(); // 0 when nothing has timed out
 */
export function createSweeper(store: SessionStore, clock: Clock, batch = 500): Sweeper {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function sweep(): Promise<number> {
    let ended = 0;
    for (;;) {
      const now = clock.now();
      const due = await store.listTimedOut(now - UNOPENED_TIMEOUT_MS, now - IDLE_TIMEOUT_MS, batch);
      let progressed = 0;
      for (const s of due) {
        // A session touched since it was listed fails the revision check and is left alone.
        if (await store.updateSession(s, endIncomplete(s, now), now)) {
          ended++;
          progressed++;
        }
      }
      if (due.length < batch || progressed === 0) return ended;
    }
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
