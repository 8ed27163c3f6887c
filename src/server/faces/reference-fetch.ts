/**
 * Fetching a reference image named by an https URL in `providedData`: the server makes a request
 * an integrator (or whoever filled `providedData`) chose, so it is held to the same address policy
 * as webhooks, checked on the address actually connected to, plus a size and a time limit, and it
 * never follows a redirect (a public URL could redirect to 169.254.169.254).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusedKind, type AddressPolicy } from '../webhooks/address-policy';

export interface ReferenceFetchOptions {
  /** Largest body, bytes (default 5 MB, the spec's limit for a reference image). */
  maxBytes?: number;
  /** One deadline for the whole request, ms (default 5 s). */
  timeoutMs?: number;
  /**
   * Which addresses may be reached (the webhooks' policy names). Default `none`: public addresses
   * only. Tests that need a loopback server say `local`.
   */
  policy?: AddressPolicy;
  /** Plain http as well as https; only tests against a loopback server need it. */
  allowHttp?: boolean;
}

export const REFERENCE_FETCH_DEFAULTS = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 5_000,
  policy: 'none' as AddressPolicy,
  allowHttp: false,
};

export type ReferenceFetchResult =
  | { ok: true; bytes: Buffer; contentType: string }
  | {
      ok: false;
      reason: 'blocked' | 'redirect' | 'too_large' | 'timeout' | 'http_status' | 'network';
      message: string;
    };

class BlockedAddressError extends Error {}

/**
 * Null when the policy lets a reference fetch reach `ip`, else why not: the webhooks' rule
 * (`refusedKind`), worded for reference images.
 *
 * @example
 * referenceRefusal('::ffff:0:127.0.0.1', 'none'); // 'address ::ffff:0:127.0.0.1 is loopback; …'
 */
export function referenceRefusal(ip: string, policy: AddressPolicy): string | null {
  const kind = refusedKind(ip, policy);
  if (kind === null) return null;
  return `address ${ip} is ${kind}; reference images are fetched from public addresses only`;
}

/** A lookup that refuses a name when any address it resolves to is refused. */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const why = referenceRefusal(a.address, policy);
        if (why) return callback(new BlockedAddressError(`${hostname}: ${why}`), '', 0);
      }
      if (options.all) {
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      }
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname}: no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * GETs a reference image; never throws. Refuses private, loopback, link-local and metadata
 * addresses (by the connected IP, so a DNS name pointing at 127.0.0.1 is refused too), any
 * redirect, a body over `maxBytes` and anything slower than `timeoutMs`.
 *
 * @example
 * const r = await fetchReference('https://example.com/me.jpg');
 * if (!r.ok) console.log(r.reason, r.message); // e.g. 'blocked', 'address 127.0.0.1 is loopback; …'
 */
export function fetchReference(
  raw: string,
  options: ReferenceFetchOptions = {},
): Promise<ReferenceFetchResult> {
  const o = { ...REFERENCE_FETCH_DEFAULTS, ...options };
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return resolve({ ok: false, reason: 'blocked', message: 'the reference URL is not valid' });
    }
    const isHttps = url.protocol === 'https:';
    if (!isHttps && !(o.allowHttp && url.protocol === 'http:')) {
      return resolve({
        ok: false,
        reason: 'blocked',
        message: `a reference URL must use https, not ${url.protocol.replace(':', '')}`,
      });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An IP literal is connected to without a lookup, so it is checked here.
    if (isIP(host) !== 0) {
      const why = referenceRefusal(host, o.policy);
      if (why) return resolve({ ok: false, reason: 'blocked', message: why });
    }

    let done = false;
    const finish = (r: ReferenceFetchResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
      req.destroy();
    };
    const req = (isHttps ? https : http).request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: 'image/jpeg, image/png' },
      agent: false,
      lookup: guardedLookup(o.policy),
    });
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          reason: 'timeout',
          message: `the reference URL did not answer within ${o.timeoutMs} ms`,
        }),
      o.timeoutMs,
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        return finish({
          ok: false,
          reason: 'redirect',
          message: `the reference URL answered a redirect (${status}); redirects are not followed`,
        });
      }
      if (status !== 200) {
        return finish({
          ok: false,
          reason: 'http_status',
          message: `the reference URL answered ${status}`,
        });
      }
      const tooLarge = () =>
        finish({
          ok: false,
          reason: 'too_large',
          message: `the reference image is larger than ${o.maxBytes} bytes`,
        });
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > o.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > o.maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      res.on('end', () =>
        finish({
          ok: true,
          bytes: Buffer.concat(chunks),
          contentType: String(res.headers['content-type'] ?? ''),
        }),
      );
      res.on('error', (err) => finish({ ok: false, reason: 'network', message: err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof BlockedAddressError) {
        return finish({ ok: false, reason: 'blocked', message: err.message });
      }
      finish({
        ok: false,
        reason: 'network',
        message: err.code ? `${err.code} ${err.message}` : err.message,
      });
    });
    req.end();
  });
}
