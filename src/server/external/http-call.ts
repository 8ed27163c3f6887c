/**
 * One request of an `external_call` node over HTTP: GET or POST, never following a redirect,
 * given up after a timeout, connecting only to addresses the webhook address policy allows (the
 * resolved address of the very connection used), reading at most `maxBodyBytes` of the answer.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressRefusal, type AddressPolicy } from '../webhooks/address-policy';
import { BlockedAddressError, guardedLookup } from '../webhooks/http-post';
import { thrownResult, type AttemptResult } from '../webhooks/retry';
import { userinfoOf } from '../webhooks/userinfo';

export interface CallOptions {
  url: string;
  method: 'GET' | 'POST';
  body: Buffer | null;
  headers: Record<string, string>;
  timeoutMs: number;
  policy: AddressPolicy;
  maxBodyBytes: number;
}

/** What one try ended with; a response carries its body (or `tooLarge`). */
export type CallResult =
  | { kind: 'response'; status: number; body: Buffer; tooLarge: boolean }
  | Exclude<AttemptResult, { kind: 'response' }>;

/**
 * Makes the request and classifies the outcome; never throws nor rejects.
 *
 * @example
 * await httpCall({ url, method: 'POST', body, headers, timeoutMs: 5000, policy: 'local', maxBodyBytes: 65536 });
 * // { kind: 'response', status: 200, body: <Buffer …>, tooLarge: false }
 */
export function httpCall(opts: CallOptions): Promise<CallResult> {
  return new Promise<CallResult>((resolve) => {
    try {
      send(opts, resolve);
    } catch (err) {
      resolve(thrownResult(err) as CallResult);
    }
  });
}

function send(opts: CallOptions, resolve: (r: CallResult) => void): void {
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return resolve({ kind: 'blocked', message: 'invalid URL' });
  }
  const isHttps = url.protocol === 'https:';
  if (!isHttps && url.protocol !== 'http:')
    return resolve({ kind: 'blocked', message: `scheme ${url.protocol} is not http(s)` });
  const userinfo = userinfoOf(url);
  if (!userinfo.ok || userinfo.user)
    return resolve({ kind: 'blocked', message: 'the URL may not carry credentials' });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, opts.policy);
    if (refusal) return resolve({ kind: 'blocked', message: refusal });
  }

  let settled = false;
  const settle = (r: CallResult) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    resolve(r);
  };
  const req = (isHttps ? https : http).request({
    protocol: url.protocol,
    hostname: host,
    port: url.port || (isHttps ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: opts.method,
    headers: {
      ...opts.headers,
      ...(opts.body ? { 'Content-Length': String(opts.body.length) } : {}),
    },
    agent: false,
    lookup: guardedLookup(opts.policy),
  });
  // One deadline for connecting, sending and reading the whole answer.
  const timer = setTimeout(() => {
    settle({ kind: 'timeout' });
    req.destroy(new Error('external call timeout'));
  }, opts.timeoutMs);

  req.on('response', (res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > opts.maxBodyBytes) {
        settle({
          kind: 'response',
          status: res.statusCode ?? 0,
          body: Buffer.alloc(0),
          tooLarge: true,
        });
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () =>
      settle({
        kind: 'response',
        status: res.statusCode ?? 0,
        body: Buffer.concat(chunks),
        tooLarge: false,
      }),
    );
    res.on('error', (err) => settle({ kind: 'network', message: err.message }));
  });
  req.on('error', (err: NodeJS.ErrnoException) => {
    if (err instanceof BlockedAddressError) settle({ kind: 'blocked', message: err.message });
    else if (err.code === 'ECONNREFUSED') settle({ kind: 'refused', message: err.message });
    else
      settle({ kind: 'network', message: err.code ? `${err.code} ${err.message}` : err.message });
  });
  req.end(opts.body ?? undefined);
}
