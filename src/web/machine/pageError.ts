import { ClientApiError } from '../api/errors';

/** The error pages the hosted page can show. */
export type PageErrorKind =
  | 'secret_expired'
  | 'secret_used'
  | 'secret_invalid'
  | 'secret_missing'
  | 'session_gone'
  | 'handoff_used'
  | 'handoff_expired'
  | 'handoff_invalid'
  | 'network'
  | 'unexpected';

/**
 * Which error page a failure calls for. A bad secret has its own page per code; any other
 * authentication failure means the token no longer opens a session (ended, expired, unknown).
 *
 * @example
 * classifyError(new ClientApiError(401, 'authentication_error', 'x', 'client_secret_used'));
 * // 'secret_used'
 */
export function classifyError(error: unknown): PageErrorKind {
  if (!(error instanceof ClientApiError)) return 'unexpected';
  if (error.isNetwork) return 'network';
  switch (error.code) {
    case 'client_secret_expired':
      return 'secret_expired';
    case 'client_secret_used':
      return 'secret_used';
    case 'client_secret_invalid':
      return 'secret_invalid';
    // A phone's link (continue on a phone): the user needs a new one from the computer.
    case 'handoff_used':
    case 'handoff_expired':
    case 'handoff_invalid':
      return error.code;
  }
  if (error.isAuth || error.type === 'not_found_error') return 'session_gone';
  return 'unexpected';
}
