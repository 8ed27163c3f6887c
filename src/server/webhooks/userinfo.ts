/**
 * The user name and password a webhook URL may carry (`https://user:pass@host/`), sent to the
 * receiver as HTTP Basic authentication. They are accepted only when they decode cleanly: the
 * same rule at registration and at each delivery, so a URL that passed one never breaks the other.
 */

export type Userinfo =
  { ok: true; user: string; password: string } | { ok: false; problem: string };

// Basic authentication carries the pair as text; a control character in it is never intended.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * The decoded user name and password of a URL (empty strings when it has none), or why they
 * cannot be used: a `%` that is not followed by two hex digits or does not make UTF-8, a control
 * character, or a `:` in the user name (Basic authentication could not tell it from the
 * separator).
 *
 * @example
 * userinfoOf(new URL('https://bob:p%40ss@example.com/')); // { ok: true, user: 'bob', password: 'p@ss' }
 * userinfoOf(new URL('https://bob:%zz@example.com/')).ok; // false
 */
export function userinfoOf(url: URL): Userinfo {
  const user = decode(url.username);
  const password = decode(url.password);
  const bad = (what: string, why: string): Userinfo => ({
    ok: false,
    problem: `the URL's ${what} ${why}`,
  });
  if (user === null)
    return bad('user name', 'is not valid percent-encoding (a % must start %XX of UTF-8)');
  if (password === null)
    return bad('password', 'is not valid percent-encoding (a % must start %XX of UTF-8)');
  if (user.includes(':')) return bad('user name', 'contains ":" once decoded');
  if (CONTROL.test(user)) return bad('user name', 'contains a control character');
  if (CONTROL.test(password)) return bad('password', 'contains a control character');
  return { ok: true, user, password };
}
