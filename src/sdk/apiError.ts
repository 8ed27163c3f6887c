import type { ErrorDetail } from './apiTypes';

/** The error `type`s of the API, and `network_error` when no answer came (or none in time). */
export type ApiErrorType =
  | 'validation_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'network_error';

/**
 * A refusal of the API (its `{ error: { type, message, code?, details? } }` body and HTTP status),
 * or a request that got no answer (`type` `network_error`, `status` 0). Thrown by every client
 * call once its retries are spent.
 *
 * @example
 * try {
 *   await idv.sessions.retrieve('sess_unknown');
 * } catch (e) {
 *   if (e instanceof IdvApiError && e.type === 'not_found_error') console.log(e.message); // 'Session not found'
 * }
 */
export class IdvApiError extends Error {
  readonly type: ApiErrorType;
  readonly status: number;
  readonly code: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  /** Seconds the service asked to wait (`Retry-After`), when it did. */
  readonly retryAfter: number | undefined;
  /** How many requests were sent, retries included. */
  readonly attempts: number;

  constructor(init: {
    type: ApiErrorType;
    status: number;
    message: string;
    code?: string | undefined;
    details?: ErrorDetail[] | undefined;
    retryAfter?: number | undefined;
    attempts: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'IdvApiError';
    this.type = init.type;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.attempts = init.attempts;
  }
}
