/** When and how long the client waits before sending a request again. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). 0 switches retrying off. */
  maxRetries: number;
  /** Backoff of the first retry when the service names no `Retry-After` (default 500 ms). */
  baseDelayMs: number;
  /**
   * The longest wait (default 60 s). A `Retry-After` longer than this is not waited for: the
   * error is thrown, so a caller is never held for minutes without knowing.
   */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 60_000,
};

/**
 * Whether an answer is worth sending again: 429 (rate limited, or the same idempotency key still
 * being processed), 5xx (the service failed), or none at all (`status` 0: the connection failed
 * or timed out). Every other status would get the same answer again.
 *
 * @example
 * isRetryable(503); // true
 * isRetryable(400); // false
 */
export function isRetryable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable.
 *
 * @example
 * parseRetryAfter('2', 0); // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', Date.UTC(2015, 9, 21, 7, 28, 0)); // 5000
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before retry number `retry` (1 for the first), or null to give up: the
 * service's `Retry-After` when it sent one (null when over `maxDelayMs`), else exponential
 * backoff with jitter (`random` in [0, 1)) capped at `maxDelayMs`.
 *
 * @example
 * retryDelay(1, 3000, DEFAULT_RETRY_POLICY, Math.random); // 3000
 * retryDelay(2, undefined, DEFAULT_RETRY_POLICY, () => 0.5); // 750 (half of 500·2, plus half of that again)
 * retryDelay(4, undefined, DEFAULT_RETRY_POLICY, Math.random); // null: three retries are spent
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  if (retry > policy.maxRetries) return null;
  if (retryAfterMs !== undefined) return retryAfterMs > policy.maxDelayMs ? null : retryAfterMs;
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  // "Equal jitter": at least half the backoff, so that retries never bunch at zero.
  return Math.round(full / 2 + (full / 2) * random());
}
