import type { LivenessAttemptAnswer } from '../api/types';
import { ClientApiError } from '../api/errors';
import type { UploadQueue } from './uploadQueue';

/** After the server's deadline, a request already sent still gets this long to be answered. */
const LAST_REQUEST_MS = 1_000;

/**
 * How long the uploads still under way may go on once the capture is over: until the server stops
 * taking frames for the attempt (its `expiresAt`, the node's time and a grace of 15 s), measured
 * from the start answer on the page's clock, plus a moment for the last request. Not less: a slow
 * phone or a loaded server may still be sending the challenge frames, and a decision without them
 * fails a challenge the user did (with a fixed 10 s, 8 of 11 bona fide fixtures failed at 4×
 * throttle on a machine with a load of 12, their challenge frames apparently still queued; one
 * was even read as a flat picture). Not more: the server refuses
 * later frames, and a page waiting for ever decides nothing.
 *
 * @example
 * sendingBudgetMs({ issuedAt: 0, expiresAt: 75_000 }, 1_000, 61_000); // 16_000 (15 s + 1 s)
 */
export function sendingBudgetMs(
  attempt: { issuedAt: number; expiresAt: number },
  startedAt: number,
  now: number,
): number {
  return Math.max(0, startedAt + (attempt.expiresAt - attempt.issuedAt) - now) + LAST_REQUEST_MS;
}

/** Without a known deadline (the attempt was replaced), the uploads get this long. */
export const SENDING_BUDGET_MS = 15_000;
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
  /** How long the uploads may still take (`sendingBudgetMs`). */
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
