/**
 * The delivery rules as plain functions: what an attempt's result means, and when the next one is.
 */

/** Delays before the 1st…5th retry: 1 min, 5 min, 15 min, 1 h, 6 h. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  6 * 60 * 60_000,
];

/** How long the dispatcher waits for a receiver's response. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** What one HTTP attempt ended with. */
export type AttemptResult =
  | { kind: 'response'; status: number }
  | { kind: 'timeout' }
  | { kind: 'refused'; message: string }
  | { kind: 'network'; message: string }
  | { kind: 'blocked'; message: string }
  /** Anything else that went wrong while making the attempt (a bug, a corrupt row): retried. */
  | { kind: 'error'; message: string };

/** What to do with a delivery after an attempt. */
export type Verdict = 'delivered' | 'retry' | 'failed';

/**
 * 2xx acknowledges; 1xx/3xx/4xx end the delivery (redirects are never followed); 5xx, a timeout, a
 * refused connection, other transport errors (reset, DNS, TLS) and any other error while making
 * the attempt are retried, by the schedule; an address the policy refuses ends it at once, since
 * retrying cannot change the answer.
 *
 * @example
 * verdictOf({ kind: 'response', status: 503 }); // 'retry'
 */
export function verdictOf(result: AttemptResult): Verdict {
  switch (result.kind) {
    case 'response':
      if (result.status >= 200 && result.status < 300) return 'delivered';
      return result.status >= 500 ? 'retry' : 'failed';
    case 'timeout':
    case 'refused':
    case 'network':
    case 'error':
      return 'retry';
    case 'blocked':
      return 'failed';
  }
}

/**
 * The result of an attempt that threw, whatever was thrown (an Error or not), so that it counts
 * as a failed attempt like any other and the retry schedule still ends.
 *
 * @example
 * thrownResult(new TypeError('x is not a function')); // { kind: 'error', message: 'TypeError: x is not a function' }
 */
export function thrownResult(err: unknown): AttemptResult {
  let message: string;
  try {
    message = err instanceof Error ? `${err.name}: ${err.message}` : `thrown ${String(err)}`;
  } catch {
    message = 'thrown a value that cannot be shown';
  }
  return { kind: 'error', message };
}

/**
 * When the next attempt is due after attempt number `attempts` (1-based) failed in a retryable way,
 * or null when the schedule is used up and the delivery is kept as failed.
 *
 * @example
 * nextAttemptAt(1, 1_000, DEFAULT_RETRY_DELAYS_MS); // 61_000: the 1st retry, one minute later
 * nextAttemptAt(6, 1_000, DEFAULT_RETRY_DELAYS_MS); // null: 1 attempt + 5 retries done
 */
export function nextAttemptAt(
  attempts: number,
  now: number,
  delays: readonly number[],
): number | null {
  const delay = delays[attempts - 1];
  return delay === undefined ? null : now + delay;
}

/**
 * Reads `WEBHOOK_RETRY_DELAYS` (milliseconds, comma-separated); the default schedule when unset.
 * An empty list ("none") means no retries. Anything else that is not a list of non-negative
 * integers is an error, so an operator's typo is not silently replaced by the default.
 *
 * @example
 * parseRetryDelays('100,200,400'); // [100, 200, 400]
 */
export function parseRetryDelays(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_RETRY_DELAYS_MS];
  if (value.trim().toLowerCase() === 'none') return [];
  const parts = value.split(',').map((p) => p.trim());
  const bad = parts.filter((p) => !/^\d+$/.test(p) || !Number.isSafeInteger(Number(p)));
  if (bad.length > 0) {
    throw new Error(
      `WEBHOOK_RETRY_DELAYS must be milliseconds separated by commas (or "none"); bad: ${bad
        .map((b) => JSON.stringify(b))
        .join(', ')}`,
    );
  }
  return parts.map(Number);
}

/**
 * A short text for the attempt log and `idv events list`.
 *
 * @example
 * describeResult({ kind: 'response', status: 502 }); // 'HTTP 502'
 */
export function describeResult(result: AttemptResult): string {
  switch (result.kind) {
    case 'response':
      return `HTTP ${result.status}`;
    case 'timeout':
      return 'timeout';
    default:
      return `${result.kind}: ${result.message}`;
  }
}
