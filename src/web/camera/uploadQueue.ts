/** What became of the items pushed so far. */
export interface UploadProgress {
  sent: number;
  /**
   * Left out: refused by the server for good (another try would be refused the same way), or
   * given up after `maxTries` failed or timed-out tries.
   */
  dropped: number;
  /** Pushed, not yet sent or dropped (the one in flight included). */
  pending: number;
  /** Failed tries in a row of the item in flight: above zero the connection is struggling. */
  failing: number;
  /** Still pending when the queue was stopped (or a `drained` wait ran out): never sent. */
  abandoned: number;
}

export interface UploadQueueOptions<T> {
  /**
   * Sends one item; a rejection is a failed try. `signal` aborts when the try has taken longer
   * than `timeoutMs` or the queue is stopped: a fetch given it lets its connection go.
   */
  send(item: T, signal: AbortSignal): Promise<unknown>;
  /** Whether another try of the same item may succeed (a lost connection, a busy server). */
  retryable(error: unknown): boolean;
  /** Wait before each further try of one item; past the end of the list the last wait repeats. */
  retryDelaysMs?: readonly number[];
  /**
   * A try that has not settled after this long counts as a retryable failure, whatever `send`
   * does: a request the network or a loaded server never answers must not hold the queue.
   */
  timeoutMs?: number;
  /** Tries of one item (failed or timed out) before it is dropped and the next one goes. */
  maxTries?: number;
  sleep?(ms: number): Promise<void>;
  /** Told of every change, for a "connection is slow" notice. */
  onProgress?(progress: UploadProgress): void;
}

export interface UploadQueue<T> {
  /** Adds an item after those already pushed; it is sent once they are done with. */
  push(item: T): void;
  /**
   * Resolves once every item pushed so far is sent or dropped (at once when none is left). With
   * `withinMs`, resolves after that long at the latest: what is still pending is then abandoned
   * (the queue stops), so whoever waits can go on with what arrived.
   */
  drained(withinMs?: number): Promise<UploadProgress>;
  /** Abandons what is left (a new attempt replaced this one); nothing more is sent. */
  stop(): void;
  progress(): UploadProgress;
}

export const DEFAULT_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000] as const;
/** A frame is at most 700 KB: far longer than a slow phone connection needs to send one. */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_TRIES = 4;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class TryTimedOut extends Error {}

/**
 * A queue that uploads items in the order they were pushed, one request at a time, while more
 * are being pushed: the liveness frames go to the server during the challenges, so its analysis
 * runs while the user is still moving. A failure that may pass (no connection, 5xx, 429, a try
 * that timed out) is retried with growing waits, up to `maxTries` tries; a refusal, or an item
 * that used up its tries, is dropped and the queue goes on with the next. Every wait is bounded,
 * so `drained()` always resolves.
 *
 * @example
 * const queue = createUploadQueue({
 *   send: (f, signal) => api.livenessFrame(nodeId, attemptId, f, { signal }),
 *   retryable: (e) => e instanceof ClientApiError && e.isNetwork });
 * queue.push(frame);
 * await queue.drained(10_000);
 */
export function createUploadQueue<T>(options: UploadQueueOptions<T>): UploadQueue<T> {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? wait;
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const maxTries = Math.max(1, options.maxTries ?? DEFAULT_MAX_TRIES);
  const items: T[] = [];
  let sent = 0;
  let dropped = 0;
  let abandoned = 0;
  let failing = 0;
  let running = false;
  let stopped = false;
  let inFlight: AbortController | null = null;
  let waiters: (() => void)[] = [];

  const progress = (): UploadProgress => ({
    sent,
    dropped,
    pending: items.length,
    failing,
    abandoned,
  });
  const changed = () => options.onProgress?.(progress());
  const settle = () => {
    if (items.length > 0 && !stopped) return;
    const list = waiters;
    waiters = [];
    for (const resolve of list) resolve();
  };

  /** One try of `item`: its answer, or a TryTimedOut rejection once `timeoutMs` has passed. */
  const attempt = async (item: T): Promise<void> => {
    const controller = new AbortController();
    inFlight = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new TryTimedOut(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      // `send` may ignore the signal: the race ends the try all the same.
      await Promise.race([options.send(item, controller.signal), timedOut]);
    } finally {
      clearTimeout(timer);
      inFlight = null;
    }
  };

  const pump = async () => {
    if (running) return;
    running = true;
    while (items.length > 0 && !stopped) {
      const item = items[0] as T;
      try {
        await attempt(item);
        if (stopped) break;
        sent++;
        failing = 0;
        items.shift();
      } catch (error) {
        if (stopped) break;
        const retry = error instanceof TryTimedOut || options.retryable(error);
        if (retry && failing + 1 < maxTries) {
          const delay = delays[Math.min(failing, delays.length - 1)] ?? 1000;
          failing++;
          changed();
          await sleep(delay);
          continue;
        }
        dropped++;
        failing = 0;
        items.shift();
      }
      changed();
    }
    running = false;
    settle();
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    abandoned += items.length;
    items.length = 0;
    inFlight?.abort();
    settle();
  };

  return {
    push(item) {
      if (stopped) return;
      items.push(item);
      changed();
      void pump();
    },
    drained(withinMs) {
      return new Promise<UploadProgress>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        waiters.push(() => {
          clearTimeout(timer);
          resolve(progress());
        });
        if (withinMs !== undefined) timer = setTimeout(stop, withinMs);
        if (!running) settle();
      });
    },
    stop,
    progress,
  };
}
