import type { LivenessAttemptAnswer } from '../api/types';
import { ClientApiError } from '../api/errors';
import type { UploadQueue } from './uploadQueue';

/**
 * Once the capture is over, the uploads still under way get this long; then the decision is
 * asked for with what arrived. A frame not there by then would only come too late: the server
 * decides from the frames it has (a missing challenge frame fails that challenge, which the user
 * can try again), and a page waiting for ever decides nothing.
 */
export const SENDING_BUDGET_MS = 10_000;
/** A finish or status call with no answer after this long is abandoned (and tried again). */
export const CALL_TIMEOUT_MS = 10_000;
/** Tries of `finish` on a lost connection before the page shows the problem and its retry. */
export const FINISH_TRIES = 3;

class CallTimedOut extends ClientApiError {
  constructor(ms: number) {
    super(0, 'network_error', `No answer within ${ms} ms`);
  }
}

/**
 * Runs one call with a signal that fires after `ms`, and rejects with a retryable network error
 * then even if the call ignores its signal.
 *
 * @example
 * const answer = await withTimeout(10_000, (signal) => api.livenessStatus(node, id, { signal }));
 */
export async function withTimeout<T>(ms: number, call: (signal: AbortSignal) => Promise<T>) {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new CallTimedOut(ms));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export interface FinishAfterUploads {
  /** The attempt's frame uploads; null when none were started (the attempt was replaced). */
  queue: Pick<UploadQueue<unknown>, 'drained'> | null;
  /** The `finish` call of the attempt. */
  finish(signal: AbortSignal): Promise<LivenessAttemptAnswer>;
  /** Whether another try may work (a lost connection, a busy server). */
  retryable(error: unknown): boolean;
  /** Whether the page still wants the answer once the uploads are done; if not, nothing is sent. */
  live?(): boolean;
  budgetMs?: number;
  timeoutMs?: number;
  tries?: number;
}

/**
 * The end of an attempt's capture: the last uploads get `budgetMs` (what is left then is
 * abandoned), then `finish` goes out, each try bounded by `timeoutMs`, retried on a lost
 * connection. A retry refused as `attempt_finished` means an earlier try did reach the server:
 * the attempt is being analysed. So the page always gets to a decision, or to a problem it shows.
 * Null when the page moved on during the uploads (`live`).
 *
 * @example
 * const answer = await finishAfterUploads({ queue, retryable: mayRetry,
 *   finish: (signal) => api.livenessFinish(nodeId, attemptId, { ended }, { signal }) });
 */
export async function finishAfterUploads(
  o: FinishAfterUploads,
): Promise<LivenessAttemptAnswer | null> {
  await o.queue?.drained(o.budgetMs ?? SENDING_BUDGET_MS);
  if (o.live && !o.live()) return null;
  const tries = o.tries ?? FINISH_TRIES;
  for (let n = 1; ; n++) {
    try {
      return await withTimeout(o.timeoutMs ?? CALL_TIMEOUT_MS, o.finish);
    } catch (error) {
      if (n > 1 && error instanceof ClientApiError && error.code === 'attempt_finished') {
        return { status: 'analysing' };
      }
      if (n >= tries || !o.retryable(error)) throw error;
    }
  }
}
