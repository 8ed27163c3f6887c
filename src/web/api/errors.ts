import type { ErrorBody } from './types';

/** What went wrong with a call to the client API, in the spec's error terms. */
export class ClientApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;

  constructor(status: number, type: string, message: string, code?: string) {
    super(message);
    this.name = 'ClientApiError';
    this.status = status;
    this.type = type;
    this.code = code;
  }

  /** True when the network, not the server, failed: the same call may work later. */
  get isNetwork(): boolean {
    return this.type === 'network_error';
  }

  /** True when the token no longer opens the session (ended, unknown or expired). */
  get isAuth(): boolean {
    return this.type === 'authentication_error';
  }
}

/**
 * Turns a failed HTTP answer into a `ClientApiError`, reading the spec's error body when there is
 * one and falling back to the status alone when the body is not JSON (a proxy's page, say).
 *
 * @example
 * errorFromResponse(401, { error: { type: 'authentication_error', message: 'x', code: 'client_secret_used' } }).code;
 * // 'client_secret_used'
 */
export function errorFromResponse(status: number, body: unknown): ClientApiError {
  const err = (body as Partial<ErrorBody> | null)?.error;
  if (err && typeof err.type === 'string' && typeof err.message === 'string') {
    return new ClientApiError(
      status,
      err.type,
      err.message,
      typeof err.code === 'string' ? err.code : undefined,
    );
  }
  const type =
    status === 401
      ? 'authentication_error'
      : status === 404
        ? 'not_found_error'
        : status === 429
          ? 'rate_limit_error'
          : status >= 500
            ? 'api_error'
            : 'validation_error';
  return new ClientApiError(status, type, `HTTP ${status}`);
}

/** The error codes of a bad client secret, each with its own page. */
export const SECRET_ERROR_CODES = [
  'client_secret_expired',
  'client_secret_used',
  'client_secret_invalid',
] as const;
export type SecretErrorCode = (typeof SECRET_ERROR_CODES)[number];
