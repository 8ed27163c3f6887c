import type { Clock } from '../clock';
import type { Job, WorkQueue } from './queue';

export type JobHandler = (payload: unknown, job: Job) => Promise<void>;

export interface JobWorkerOptions {
  /** SQLite's queue answers at once, PostgreSQL's with promises: the worker awaits both. */
  queue: WorkQueue;
  clock: Clock;
  handlers: Record<string, JobHandler>;
  /**
   * `auto`: jobs run in the background as soon as they are queued, and a timer looks for due and
   * orphaned jobs every `pollMs`. `manual`: only `drain()` runs them (tests).
   */
  mode: 'auto' | 'manual';
  /**
   * How long a claim holds a job without news from its worker: the worker renews it every third of
   * this while the job runs, so a live worker keeps a slow job and a dead one frees it after this.
   */
  leaseMs?: number;
  retryMs?: number;
  maxTries?: number;
  pollMs?: number;
  /** Called on every timer tick before jobs are looked for (e.g. to queue expired attempts). */
  onTick?: () => Promise<void>;
  log?: (message: string, err?: unknown) => void;
  /** Each run's start and end, for an operator's debug log (and tests that check no job ran twice). */
  trace?: (what: 'start' | 'end', job: Job) => void;
}

export interface JobWorker {
  /** Something was queued: run it soon (auto mode only). */
  kick(): void;
  /** Runs every job due now, one at a time, and returns how many ran. */
  drain(): Promise<number>;
  start(): void;
  /** Stops the timer and waits for the job in hand. */
  stop(): Promise<void>;
}

/**
 * A killed worker's job waits this long for another worker. Renewals keep slow jobs; only a
 * worker whose event loop is blocked longer than two thirds of this loses its job to another.
 */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * Runs queued jobs in-process, one at a time (concurrency 1). A handler that throws is retried
 * after `retryMs`, up to `maxTries` claims in all; a worker killed mid-job leaves a lease that runs
 * out, after which any worker claims the job again.
 *
 * @example
 * const worker = createJobWorker({ queue, clock, mode: 'auto', handlers: { hello: async () => {} } });
 * worker.start();
 * queue.enqueue('hello', {}, Date.now());
 * worker.kick();
 */
export function createJobWorker(o: JobWorkerOptions): JobWorker {
  const leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  const retryMs = o.retryMs ?? 2_000;
  const maxTries = o.maxTries ?? 3;
  // Other workers (post-session analyses) share the jobs table: take only what we can run.
  const kinds = Object.keys(o.handlers);
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const runOne = async (job: Job) => {
    const handler = o.handlers[job.kind];
    o.trace?.('start', job);
    const heartbeat = setInterval(() => {
      void Promise.resolve(o.queue.renew(job, o.clock.now(), leaseMs))
        .then((held) => {
          if (!held) o.log?.(`job ${job.id} (${job.kind}): lease lost; another worker may run it`);
        })
        .catch((err) => o.log?.(`job ${job.id}: lease not renewed`, err));
    }, leaseMs / 3);
    heartbeat.unref();
    try {
      if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
      await handler(job.payload, job);
      await o.queue.complete(job);
    } catch (err) {
      o.log?.(`job ${job.id} (${job.kind}) failed on try ${job.tries}`, err);
      await o.queue.fail(
        job,
        err instanceof Error ? err.message : String(err),
        o.clock.now(),
        retryMs,
        maxTries,
      );
    } finally {
      clearInterval(heartbeat);
      o.trace?.('end', job);
    }
  };

  const runDue = async (): Promise<number> => {
    let n = 0;
    // A stop waits for the job in hand only: the rest stay queued for the next start (a server
    // shutting down must not first work through every analysis still due).
    while (!stopped) {
      const job = await o.queue.claim(o.clock.now(), leaseMs, kinds);
      if (!job) return n;
      await runOne(job);
      n++;
    }
    return n;
  };

  const pump = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let n = 0;
      do {
        again = false;
        n += await runDue();
      } while (again && !stopped);
      return n;
    })().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    kick() {
      if (o.mode !== 'auto' || stopped) return;
      setImmediate(() => {
        pump().catch((err) => o.log?.('job worker failed', err));
      });
    },
    async drain() {
      while (running) await running;
      return pump();
    },
    start() {
      if (o.mode !== 'auto' || timer || stopped) return;
      timer = setInterval(() => {
        void (async () => {
          await o.onTick?.();
          await pump();
        })().catch((err) => o.log?.('job worker tick failed', err));
      }, o.pollMs ?? 1_000);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      while (running) await running.catch(() => 0);
    },
  };
}
