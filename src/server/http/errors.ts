import type {
  FastifyError,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import {
  API_LIMITS,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  type ErrorType,
} from '../../core/api';

/** An error the API answers with its own body; anything else becomes `api_error`. */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly code: ErrorCode | undefined;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    type: ErrorType,
    message: string,
    opts: { code?: ErrorCode; details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.type = type;
    this.code = opts.code;
    this.details = opts.details;
    this.headers = opts.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.type];
  }

  body(): ErrorBody {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code } : {}),
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

/**
 * A `validation_error` whose message names the first problem and how many more there are.
 *
 * @example
 * invalid([{ path: 'langs[0]', message: 'xx is not a supported language' }]).message;
 * // 'Invalid request parameters: langs[0]: xx is not a supported language'
 */
export function invalid(details: ErrorDetail[], code?: ErrorCode): ApiError {
  const first = details[0];
  const more = details.length > 1 ? ` (and ${details.length - 1} more problems)` : '';
  const message = first
    ? `Invalid request parameters: ${first.path ? `${first.path}: ` : ''}${first.message}${more}`
    : 'Invalid request parameters';
  return new ApiError('validation_error', message, { details, ...(code ? { code } : {}) });
}

export const notFound = (message: string) => new ApiError('not_found_error', message);

/**
 * A JSON pointer as the API names paths: `/flow/3/outcomes` → `flow[3].outcomes`.
 *
 * @example
 * pointerToPath('/metadata/plan'); // 'metadata.plan'
 * pointerToPath('/langs/0'); // 'langs[0]'
 */
export function pointerToPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

/**
 * The details of a failed schema check of a route (`schema:`): each problem with the API's path,
 * `(body)` for the body as a whole.
 *
 * @example
 * validationDetails([{ instancePath: '/langs/0', message: 'expected string', … }], 'body');
 * // [{ path: 'langs[0]', message: 'expected string' }]
 */
export function validationDetails(
  errors: readonly FastifySchemaValidationError[],
  part: string,
): ErrorDetail[] {
  return errors.map((e) => ({
    path: pointerToPath(e.instancePath) || `(${part})`,
    message: e.message ?? 'is not valid',
  }));
}

/** Fastify's own request errors, each turned into a `validation_error` an integrator can act on. */
function fromFastify(err: FastifyError): ApiError | null {
  switch (err.code) {
    case 'FST_ERR_VALIDATION':
      if (err.validation) {
        return invalid(validationDetails(err.validation, err.validationContext ?? 'body'));
      }
      break;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'validation_error',
        `Request body is too large: at most ${API_LIMITS.maxBodyBytes / (1024 * 1024)} MB`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('validation_error', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('validation_error', 'Request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('validation_error', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('validation_error', 'Content-Length does not match the body');
    default:
      break;
  }
  if (err instanceof SyntaxError || err.name === 'SyntaxError') {
    return new ApiError('validation_error', 'Request body is not valid JSON');
  }
  const status = err.statusCode ?? 500;
  if (status === 404) return notFound('Not found');
  if (status >= 400 && status < 500) {
    // Fastify's client-error messages describe the request, never our internals.
    return new ApiError('validation_error', err.message || 'Invalid request');
  }
  return null;
}

/**
 * The one error handler: the spec's body and status for every failure, no internals in a 500.
 *
 * @example
 * app.setErrorHandler(errorHandler);
 */
export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const api = err instanceof ApiError ? err : fromFastify(err);
  if (api) {
    for (const [k, v] of Object.entries(api.headers)) reply.header(k, v);
    return reply.code(api.status).send(api.body());
  }
  request.log.error({ err }, 'unexpected error');
  return reply
    .code(500)
    .send(new ApiError('api_error', 'An unexpected error occurred on our side').body());
}

/**
 * Unknown routes (and methods) answer `not_found_error`.
 *
 * @example
 * app.setNotFoundHandler(notFoundHandler);
 */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .send(notFound(`Unknown route: ${request.method} ${request.url.split('?')[0]}`).body());
}
