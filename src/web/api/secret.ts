/** The query parameter of the hosted URL that carries the client secret. */
export const SECRET_PARAM = 'client_secret';
/**
 * The query parameter the page puts in its address once the secret is spent: the session's id,
 * which is no credential. A reload inside an embedder's iframe then still gets the session's
 * `frame-ancestors` from the server (docs/hosted-page.md).
 */
export const SESSION_PARAM = 'session';

/**
 * Reads the client secret from a page URL and gives the same URL without it, to be put in the
 * address bar once the secret is spent (so it is neither bookmarked nor shared by accident).
 *
 * @example
 * takeSecret('https://x.test/verify?client_secret=cs_1&a=b#h');
 * // { secret: 'cs_1', cleanUrl: '/verify?a=b#h' }
 */
export function takeSecret(href: string): { secret: string | null; cleanUrl: string } {
  const url = new URL(href);
  const secret = url.searchParams.get(SECRET_PARAM);
  url.searchParams.delete(SECRET_PARAM);
  const query = url.searchParams.toString();
  return {
    secret: secret && secret.trim() ? secret.trim() : null,
    cleanUrl: `${url.pathname}${query ? `?${query}` : ''}${url.hash}`,
  };
}

/**
 * The address for the bar once the session is known: the clean address with the session's id.
 *
 * @example
 * addressWithSession('/verify?a=b#h', 'sess_1'); // '/verify?a=b&session=sess_1#h'
 */
export function addressWithSession(cleanUrl: string, sessionId: string): string {
  const url = new URL(cleanUrl, 'http://page.invalid');
  url.searchParams.set(SESSION_PARAM, sessionId);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The query parameter of a phone's link (`/p/{code}` redirects to `/verify?handoff={code}`). */
export const HANDOFF_PARAM = 'handoff';

/**
 * Reads a hand-off code from an address (as `takeSecret` gives it) and gives the address without
 * it: the code works once, and a reload must not try it again.
 *
 * @example
 * takeHandoff('/verify?handoff=K7QPX2MZ9RTA&a=b'); // { handoff: 'K7QPX2MZ9RTA', cleanUrl: '/verify?a=b' }
 */
export function takeHandoff(address: string): { handoff: string | null; cleanUrl: string } {
  const url = new URL(address, 'http://page.invalid');
  const code = url.searchParams.get(HANDOFF_PARAM)?.trim() ?? '';
  url.searchParams.delete(HANDOFF_PARAM);
  const query = url.searchParams.toString();
  return {
    handoff: code || null,
    cleanUrl: `${url.pathname}${query ? `?${query}` : ''}${url.hash}`,
  };
}
