/**
 * One webhook attempt over HTTP: a POST that never follows a redirect, gives up after a timeout,
 * and connects only to addresses the policy allows (checked on the resolved address of the very
 * connection used).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRefusal, type AddressPolicy } from './address-policy';
import { thrownResult, type AttemptResult } from './retry';
import { userinfoOf } from './userinfo';

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
}

/** Keep-alive agents shared by a dispatcher's attempts. */
export interface WebhookAgents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

/**
 * Keep-alive agents sized for the dispatcher: `perOrigin` sockets to one host, `total` overall.
 *
 * @example
 * const agents = createWebhookAgents({ perOrigin: 8, total: 64 });
 */
export function createWebhookAgents(opts: { perOrigin: number; total: number }): WebhookAgents {
  const common = {
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: opts.perOrigin,
    maxTotalSockets: opts.total,
    maxFreeSockets: opts.perOrigin,
    scheduling: 'lifo' as const,
    timeout: 60_000,
  };
  const agents = { http: new http.Agent(common), https: new https.Agent(common) };
  return { ...agents, destroy: () => (agents.http.destroy(), agents.https.destroy()) };
}

/** A DNS lookup that refuses the whole name when any address it resolves to is refused. */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const refusal = addressRefusal(a.address, policy);
        if (refusal) return callback(new BlockedAddressError(`${hostname}: ${refusal}`), '', 0);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname}: no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

export interface PostOptions {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  policy: AddressPolicy;
  agents?: WebhookAgents;
}

/**
 * POSTs a body and classifies the outcome; never throws nor rejects (an error while building the
 * request is an `error` result). Resolves as soon as the response status is known (the rest of
 * the response is drained in the background).
 *
 * @example
 * await postWebhook({ url, body, headers, timeoutMs: 10_000, policy: 'local' });
 * // { kind: 'response', status: 200 }
 */
export function postWebhook(opts: PostOptions): Promise<AttemptResult> {
  return new Promise<AttemptResult>((resolve) => {
    try {
      send(opts, resolve);
    } catch (err) {
      resolve(thrownResult(err));
    }
  });
}

/** The body of postWebhook: every outcome goes to `resolve`; a throw is its caller's to catch. */
function send(opts: PostOptions, resolve: (r: AttemptResult) => void): void {
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return resolve({ kind: 'blocked', message: 'invalid URL' });
  }
  const isHttps = url.protocol === 'https:';
  if (!isHttps && url.protocol !== 'http:') {
    return resolve({ kind: 'blocked', message: `scheme ${url.protocol} is not http(s)` });
  }
  // A URL stored before registration checked this: it can never be sent as it is.
  const userinfo = userinfoOf(url);
  if (!userinfo.ok) return resolve({ kind: 'blocked', message: userinfo.problem });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, opts.policy);
    if (refusal) return resolve({ kind: 'blocked', message: refusal });
  }

  let settled = false;
  const settle = (r: AttemptResult) => {
    if (settled) return;
    settled = true;
    resolve(r);
  };

  const req = (isHttps ? https : http).request({
    protocol: url.protocol,
    hostname: host,
    port: url.port || (isHttps ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    headers: { ...opts.headers, 'Content-Length': String(opts.body.length) },
    agent: opts.agents ? (isHttps ? opts.agents.https : opts.agents.http) : false,
    lookup: guardedLookup(opts.policy),
    ...(userinfo.user ? { auth: `${userinfo.user}:${userinfo.password}` } : {}),
  });

  // One deadline for connecting, sending and the response headers; a body that never ends is
  // cut by the same timer so the socket is not held forever.
  const timer = setTimeout(() => {
    settle({ kind: 'timeout' });
    req.destroy(new Error('webhook timeout'));
  }, opts.timeoutMs);

  req.on('response', (res) => {
    settle({ kind: 'response', status: res.statusCode ?? 0 });
    res.on('end', () => clearTimeout(timer));
    res.on('error', () => clearTimeout(timer));
    res.resume();
  });
  req.on('error', (err: NodeJS.ErrnoException) => {
    clearTimeout(timer);
    if (err instanceof BlockedAddressError) settle({ kind: 'blocked', message: err.message });
    else if (err.code === 'ECONNREFUSED') settle({ kind: 'refused', message: err.message });
    else
      settle({ kind: 'network', message: err.code ? `${err.code} ${err.message}` : err.message });
  });
  req.on('close', () => clearTimeout(timer));
  req.end(opts.body);
}
