/**
 * The signature scheme of webhook requests, one piece of code for both sides: the service signs
 * with `signWebhookPayload`, receivers check with `verifyWebhookSignature`.
 *
 * Header: `X-Service-Signature: t=<unix ms>,v1=<hex>[,v1=<hex>…]`, where each v1 is the lowercase
 * hex HMAC-SHA256, keyed by one signing secret, of `<t>.<raw body>`. Several v1 parts appear while a
 * secret is being rotated; any one of them matching is enough.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The request header that carries the signature (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = 'X-Service-Signature';

/** How far the signed timestamp may be from the receiver's clock, either way: 5 minutes. */
export const DEFAULT_TOLERANCE_MS = 5 * 60 * 1000;

/** The raw request body exactly as received (a string is taken as its UTF-8 bytes). */
export type RawBody = string | Uint8Array;

const HEX_SHA256 = /^[0-9a-f]{64}$/;

function toBytes(body: RawBody): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

/**
 * The v1 signature of one body under one secret: lowercase hex HMAC-SHA256 of `<t>.<raw body>`.
 *
 * @example
 * computeSignature('whsec_abc', 1700000000000, '{"id":"evt_1"}'); // '5f1c…' (64 hex characters)
 */
export function computeSignature(secret: string, timestamp: number, rawBody: RawBody): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(toBytes(rawBody))
    .digest('hex');
}

/**
 * The `X-Service-Signature` value for a body: one `v1=` part per secret, in the order given.
 *
 * @example
 * signWebhookPayload({ rawBody: '{}', secrets: ['whsec_new', 'whsec_old'], timestamp: Date.now() });
 * // 't=1700000000000,v1=…,v1=…'
 */
export function signWebhookPayload(opts: {
  rawBody: RawBody;
  secrets: readonly string[];
  timestamp: number;
}): string {
  if (opts.secrets.length === 0) throw new Error('signWebhookPayload: at least one secret');
  if (!Number.isSafeInteger(opts.timestamp) || opts.timestamp < 0) {
    throw new Error('signWebhookPayload: timestamp must be a non-negative integer (unix ms)');
  }
  const body = toBytes(opts.rawBody);
  const parts = opts.secrets.map((s) => `v1=${computeSignature(s, opts.timestamp, body)}`);
  return [`t=${opts.timestamp}`, ...parts].join(',');
}

/** A signature header taken apart. Parts of other schemes (not `t`/`v1`) are ignored. */
export interface ParsedSignatureHeader {
  timestamp: number;
  signatures: string[];
}

/**
 * Parses `t=<unix ms>,v1=<hex>[,v1=<hex>…]`; null when it has no valid `t` or no `v1`.
 *
 * @example
 * parseSignatureHeader('t=1700000000000,v1=ab…'); // { timestamp: 1700000000000, signatures: ['ab…'] }
 */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const raw of header.split(',')) {
    const part = raw.trim();
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (key === 't') {
      // Two timestamps would make "which one was signed" ambiguous: refuse the header.
      if (timestamp !== null || !/^\d{1,16}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

export type VerifyFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'no_matching_signature'
  | 'no_secret';

export type VerifyResult =
  { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure; message: string };

export interface VerifyOptions {
  /** The body exactly as received: not re-serialized JSON, which would not match. */
  rawBody: RawBody;
  /** The `X-Service-Signature` header value (Node may hand an array when it is repeated). */
  header: string | readonly string[] | undefined | null;
  /** The endpoint's signing secret; give `secrets` to accept several during your own rotation. */
  secret?: string;
  secrets?: readonly string[];
  /** Allowed distance between `t` and `now`, either way. Default 5 minutes. */
  toleranceMs?: number;
  /** The receiver's clock in unix ms. Default `Date.now()`. */
  now?: number;
}

/**
 * Checks a webhook request's signature. Pure: the same inputs always give the same answer, nothing
 * thrown for bad input. Any v1 part matching any secret passes; comparison is constant-time.
 *
 * @example
 * const r = verifyWebhookSignature({
 *   rawBody: req.body, // a Buffer of the exact bytes received
 *   header: req.headers['x-service-signature'],
 *   secret: process.env.WEBHOOK_SECRET!,
 * });
 * if (!r.ok) return res.status(401).send(r.message);
 */
export function verifyWebhookSignature(opts: VerifyOptions): VerifyResult {
  const secrets = [...(opts.secrets ?? []), ...(opts.secret !== undefined ? [opts.secret] : [])];
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) {
    return { ok: false, reason: 'no_secret', message: 'No signing secret configured' };
  }
  const header = Array.isArray(opts.header) ? opts.header.join(',') : opts.header;
  if (typeof header !== 'string' || header.trim() === '') {
    return { ok: false, reason: 'missing_header', message: `Missing ${SIGNATURE_HEADER} header` };
  }
  const parsed = parseSignatureHeader(header);
  if (!parsed) {
    return {
      ok: false,
      reason: 'malformed_header',
      message: `Malformed ${SIGNATURE_HEADER} header: expected t=<unix ms>,v1=<hex>`,
    };
  }
  const now = opts.now ?? Date.now();
  const tolerance = opts.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  if (Math.abs(now - parsed.timestamp) > tolerance) {
    return {
      ok: false,
      reason: 'timestamp_out_of_tolerance',
      message: `Signature timestamp is more than ${tolerance} ms from now`,
    };
  }
  const body = toBytes(opts.rawBody);
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, parsed.timestamp, body), 'hex');
    for (const candidate of parsed.signatures) {
      // Only the length of a well-formed part is checked before the constant-time comparison,
      // and that length is public (always 64).
      if (!HEX_SHA256.test(candidate)) continue;
      if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
    }
  }
  if (!matched) {
    return { ok: false, reason: 'no_matching_signature', message: 'No signature matches the body' };
  }
  return { ok: true, timestamp: parsed.timestamp };
}
