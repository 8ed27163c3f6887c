import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../ids';
import type { ApiKeyRecord, Scope, SessionStore } from '../store/types';
import type { RateLimitConfig } from '../deps';
import { ApiError } from './errors';
import type { RateLimiter, RateState } from './rateLimit';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API-key hook on every `/sessions`, `/avatars`, `/langs` request. */
    auth?: { scope: Scope; key: ApiKeyRecord };
  }
}

const KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9_-]{16,100}$/;

/**
 * The hashes of the keys seen lately. A backend sends the same key with every request; hashing
 * it is a pure function of the text, so it is done once. Whether the key is still valid is the
 * store's to say on every request, as before. Worth about 5 % of a `GET /sessions/{id}` (under
 * 1 % of a create; docs/api.md, "Caches, one by one").
 */
const hashes = new Map<string, string>();
const HASHES_MAX = 1000;

function keyHash(token: string): string {
  let h = hashes.get(token);
  if (h === undefined) {
    h = sha256Hex(token);
    if (hashes.size >= HASHES_MAX) hashes.clear();
    hashes.set(token, h);
  }
  return h;
}

/**
 * Reads `Authorization: Bearer <token>`; null when absent or not a bearer header.
 *
 * @example
 * bearer('Bearer sk_test_abc'); // 'sk_test_abc'
 */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? (m[1] as string) : null;
}

function rateHeaders(reply: FastifyReply, s: RateState): void {
  reply.header('RateLimit-Limit', String(s.limit));
  reply.header('RateLimit-Remaining', String(s.remaining));
  reply.header('RateLimit-Reset', String(s.resetSeconds));
}

function limited(s: RateState, message: string): ApiError {
  return new ApiError('rate_limit_error', message, {
    headers: {
      'RateLimit-Limit': String(s.limit),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(s.resetSeconds),
      'Retry-After': String(Math.max(1, s.resetSeconds)),
    },
  });
}

/**
 * The one rule for a refused credential (an API key, a client secret or token): it counts against
 * the caller's address, and once the address is over `limit`, the caller gets 429 instead of
 * `err`. Only refusals reach it, so a valid credential is never refused for what others sent from
 * its address (behind a proxy without TRUST_PROXY every caller shares one): it slows guessing,
 * and nothing else.
 *
 * @example
 * throw await badCredential(limiter, request.ip, 30, new ApiError('authentication_error', 'Invalid API key provided'), 'an invalid API key');
 */
export async function badCredential(
  limiter: RateLimiter | null,
  ip: string,
  limit: number,
  err: ApiError,
  what: string,
): Promise<ApiError> {
  const s = await limiter?.hit(`ip:${ip}`, limit);
  return s && !s.allowed
    ? limited(s, `Too many requests with ${what} from this address; retry later`)
    : err;
}

/**
 * The `onRequest` hook of the public API: a valid, unrevoked key (its mode and account become the
 * request's scope), then the key's rate limit. The key is checked first (its hash and record are
 * cached), so a valid key is never refused for what other callers sent from its address: behind a
 * proxy without TRUST_PROXY every customer shares one. Refusals for a bad or missing key count
 * against the caller's IP only, which gets 429s instead of 401s once it floods: that slows
 * guessing, and nothing else.
 *
 * @example
 * api.addHook('onRequest', apiKeyAuth(store, limiter, limits));
 */
export function apiKeyAuth(
  store: SessionStore,
  limiter: RateLimiter | null,
  limits: RateLimitConfig,
) {
  /** A bad key: counted against the address and `err`; 429 (not counted) once it is over. */
  const refuse = async (request: FastifyRequest, err: ApiError): Promise<never> => {
    throw await badCredential(limiter, request.ip, limits.badKeyPerIp, err, 'an invalid API key');
  };
  return async function onRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = bearer(request.headers.authorization);
    if (!token) {
      return refuse(
        request,
        new ApiError(
          'authentication_error',
          'Invalid API key provided: send it as Authorization: Bearer sk_…',
          { code: 'api_key_missing' },
        ),
      );
    }
    const key = KEY_PATTERN.test(token) ? await store.findApiKeyByHash(keyHash(token)) : null;
    if (!key || key.revokedAt !== null) {
      return refuse(
        request,
        new ApiError('authentication_error', 'Invalid API key provided', {
          code: 'api_key_invalid',
        }),
      );
    }
    request.auth = { scope: { accountId: key.accountId, mode: key.mode }, key };
    if (limiter) {
      const s = await limiter.hit(`key:${key.id}`, key.mode === 'live' ? limits.live : limits.test);
      if (!s.allowed) {
        throw limited(
          s,
          `Rate limit exceeded: ${s.limit} requests per minute; retry after ${Math.max(1, s.resetSeconds)} seconds`,
        );
      }
      rateHeaders(reply, s);
    }
  };
}

/**
 * The scope of an authenticated request (the hook ran before).
 *
 * @example
 * const scope = scopeOf(request);
 */
export function scopeOf(request: FastifyRequest): Scope {
  if (!request.auth) throw new Error('route is not behind apiKeyAuth');
  return request.auth.scope;
}
