/** What became of the items pushed so far. */
export interface UploadProgress {
  sent: number;
  /** Refused by the server for good (another try would be refused the same way); left out. */
  dropped: number;
  /** Pushed, not yet sent or dropped (the one in flight included). */
  pending: number;
  /** Failed tries in a row of the item in flight: above zero the connection is struggling. */
  failing: number;
}

export interface UploadQueueOptions<T> {
  /** Sends one item; a rejection is a failed try. */
  send(item: T): Promise<unknown>;
  /** Whether another try of the same item may succeed (a lost connection, a busy server). */
  retryable(error: unknown): boolean;
  /**
   * Wait before each further try of one item; past the end of the list the last wait repeats.
   * A retryable failure is tried again until the queue is stopped: the server refuses for good
   * (not retryable) once the attempt has expired, which ends it.
   */
  retryDelaysMs?: readonly number[];
  sleep?(ms: number): Promise<void>;
  /** Told of every change, for a "connection is slow" notice. */
  onProgress?(progress: UploadProgress): void;
}

export interface UploadQueue<T> {
  /** Adds an item after those already pushed; it is sent once they are done with. */
  push(item: T): void;
  /** Resolves once every item pushed so far is sent or dropped (at once when none is left). */
  drained(): Promise<UploadProgress>;
  /** Abandons what is left (a new attempt replaced this one); nothing more is sent. */
  stop(): void;
  progress(): UploadProgress;
}

export const DEFAULT_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000] as const;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A queue that uploads items in the order they were pushed, one request at a time, while more
 * are being pushed: the liveness frames go to the server during the challenges, so its analysis
 * runs while the user is still moving. A failure that may pass (no connection, 5xx, 429) is
 * retried with growing waits; a refusal drops that item and the queue goes on with the next.
 *
 * @example
 * const queue = createUploadQueue({ send: (f) => api.livenessFrame(nodeId, attemptId, f),
 *   retryable: (e) => e instanceof ClientApiError && e.isNetwork });
 * queue.push(frame);
 * await queue.drained();
 */
export function createUploadQueue<T>(options: UploadQueueOptions<T>): UploadQueue<T> {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? wait;
  const items: T[] = [];
  let sent = 0;
  let dropped = 0;
  let failing = 0;
  let running = false;
  let stopped = false;
  let waiters: (() => void)[] = [];

  const progress = (): UploadProgress => ({
    sent,
    dropped,
    pending: items.length,
    failing,
  });
  const changed = () => options.onProgress?.(progress());
  const settle = () => {
    if (items.length > 0 && !stopped) return;
    const list = waiters;
    waiters = [];
    for (const resolve of list) resolve();
  };

  const pump = async () => {
    if (running) return;
    running = true;
    while (items.length > 0 && !stopped) {
      const item = items[0] as T;
      try {
        await options.send(item);
        if (stopped) break;
        sent++;
        failing = 0;
        items.shift();
      } catch (error) {
        if (stopped) break;
        if (options.retryable(error)) {
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

  return {
    push(item) {
      if (stopped) return;
      items.push(item);
      changed();
      void pump();
    },
    drained() {
      return new Promise<UploadProgress>((resolve) => {
        waiters.push(() => resolve(progress()));
        if (!running) settle();
      });
    },
    stop() {
      stopped = true;
      items.length = 0;
      settle();
    },
    progress,
  };
}
