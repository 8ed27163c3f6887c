import type { Mode } from '../store/types';

/** Loopback hosts a tester's page may run on over plain http (test mode only). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A DNS label as CSP host-source grammar and DNS both allow: letters, digits, inner hyphens. */
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

export type EmbedOriginCheck = { ok: true; origin: string } | { ok: false; message: string };

/**
 * Whether a (URL-parsed, lower-case) host is a host name, an IPv4 address or an IPv6 literal,
 * with no character that means something else in a CSP source list (`*`, `;`, `,`, spaces…).
 */
function isPlainHost(hostname: string): boolean {
  if (/^\[[0-9a-f:.]+\]$/.test(hostname)) return true;
  if (IPV4.test(hostname)) return true;
  return hostname.length <= 253 && hostname.split('.').every((label) => DNS_LABEL.test(label));
}

/**
 * The one rule for an `embedOrigins` entry: an exact `https://host[:port]` origin (a host name,
 * IPv4 or IPv6 literal; no wildcard, user, path, query or fragment), or in test mode also
 * `http://localhost`, `http://127.0.0.1` or `http://[::1]` with any port. An accepted entry comes
 * back in its origin form (lower-case, default port and trailing `/` dropped), which is what the
 * page's `frame-ancestors` and `postMessage` use; nothing else may reach them.
 *
 * @example
 * checkEmbedOrigin('https://Shop.Example:443/', 'live'); // { ok: true, origin: 'https://shop.example' }
 * checkEmbedOrigin('https://*.shop.example', 'live'); // { ok: false, message: 'wildcards are not accepted…' }
 * checkEmbedOrigin('http://localhost:5173', 'test'); // { ok: true, origin: 'http://localhost:5173' }
 */
export function checkEmbedOrigin(value: string, mode: Mode): EmbedOriginCheck {
  const example = 'such as https://shop.example';
  // The URL parser would silently drop tabs and newlines and trim spaces: refuse them instead.
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value)) {
    return { ok: false, message: `"${value}" must be one origin ${example}, without spaces` };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, message: `"${value}" is not an origin ${example}` };
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(loopbackHttp && mode === 'test')) {
    return {
      ok: false,
      message: loopbackHttp
        ? `"${value}": http is accepted only in test mode (a session made with an sk_test_ key); use https`
        : `"${value}" must be an https origin ${example} (http only for localhost, 127.0.0.1 and [::1] in test mode)`,
    };
  }
  if (url.username || url.password) {
    return { ok: false, message: `"${value}" must not carry a user name or password` };
  }
  if (url.href !== `${url.origin}/`) {
    return {
      ok: false,
      message: `"${value}" must be an origin ${example}, without a path, query or fragment`,
    };
  }
  if (url.hostname.includes('*')) {
    return {
      ok: false,
      message: `"${value}": wildcards are not accepted; list each origin (at most 20)`,
    };
  }
  if (!isPlainHost(url.hostname)) {
    return { ok: false, message: `"${value}": "${url.hostname}" is not a valid host name` };
  }
  return { ok: true, origin: url.origin };
}

/**
 * The stored origins that pass `checkEmbedOrigin`, in their origin form: what may go into a CSP
 * or to the page, whatever an older version of the service let into the store.
 *
 * @example
 * safeEmbedOrigins(['https://shop.example', 'https://a;script-src *'], 'live'); // ['https://shop.example']
 */
export function safeEmbedOrigins(origins: readonly string[], mode: Mode): string[] {
  const out: string[] = [];
  for (const o of origins) {
    const c = typeof o === 'string' ? checkEmbedOrigin(o, mode) : null;
    if (c?.ok && !out.includes(c.origin)) out.push(c.origin);
  }
  return out;
}
