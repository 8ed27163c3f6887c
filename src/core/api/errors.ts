import { Type, type Static } from '@sinclair/typebox';

/** The error types of decisions.md, each with its HTTP status. */
export const ERROR_STATUS = {
  validation_error: 400,
  authentication_error: 401,
  not_found_error: 404,
  rate_limit_error: 429,
  api_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

/**
 * Every `code` the service sends. The first five are the spec's; the others name the client-API
 * refusals so that the hosted page can react to each without reading messages.
 */
export const ERROR_CODES = [
  'api_key_missing',
  'api_key_invalid',
  'client_secret_invalid',
  'client_secret_expired',
  'client_secret_used',
  'client_token_missing',
  'client_token_invalid',
  'session_finished',
  'node_not_current',
  'outcome_unknown',
  'outcome_not_allowed',
  'otp_not_sent',
  'otp_expired',
  'otp_resend_too_soon',
  'otp_destination_required',
  'otp_destination_invalid',
  'otp_send_limit',
  'otp_destination_limit',
  'version_unknown',
  'media_url_expired',
  'media_url_invalid',
  'liveness_attempts_exhausted',
  'attempt_unknown',
  'attempt_finished',
  'attempt_expired',
  'too_many_frames',
  'video_exists',
  'video_window_closed',
  'video_analysis_disabled',
  'scan_not_timed_out',
  'handoff_invalid',
  'handoff_expired',
  'handoff_used',
  'session_on_phone',
  'idempotency_key_invalid',
  'idempotency_key_mismatch',
  'idempotency_key_in_use',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorDetailSchema = Type.Object(
  {
    path: Type.String({ description: 'Where the problem is, e.g. `flow[3].outcomes.passed`.' }),
    message: Type.String(),
    nodeId: Type.Optional(Type.String({ description: 'The flow node the problem concerns.' })),
  },
  { $id: 'ErrorDetail' },
);

export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      type: Type.Union(Object.keys(ERROR_STATUS).map((t) => Type.Literal(t))),
      message: Type.String(),
      code: Type.Optional(Type.String()),
      details: Type.Optional(Type.Array(ErrorDetailSchema)),
    }),
  },
  { $id: 'Error' },
);

export type ErrorDetail = Static<typeof ErrorDetailSchema>;
export interface ErrorBody {
  error: { type: ErrorType; message: string; code?: ErrorCode; details?: ErrorDetail[] };
}
