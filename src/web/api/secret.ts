/** The query parameter of the hosted URL that carries the client secret. */
export const SECRET_PARAM = 'client_secret';

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
