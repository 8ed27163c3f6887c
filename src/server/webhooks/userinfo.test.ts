import { describe, expect, it } from 'vitest';
import { userinfoOf } from './userinfo';

describe('userinfoOf', () => {
  it.each([
    ['https://example.com/hook', '', ''],
    ['https://bob@example.com/hook', 'bob', ''],
    ['https://bob:p%40ss@example.com/hook', 'bob', 'p@ss'],
    ['https://bob:%E2%82%AC@example.com/hook', 'bob', '€'],
  ])('%s decodes', (url, user, password) => {
    expect(userinfoOf(new URL(url))).toEqual({ ok: true, user, password });
  });

  it.each([
    ['https://user:%zz@example.com/', 'password is not valid percent-encoding'],
    ['https://user:%C3@example.com/', 'password is not valid percent-encoding'], // not UTF-8
    ['https://us%zzer:pw@example.com/', 'user name is not valid percent-encoding'],
    ['https://a%3Ab:pw@example.com/', 'user name contains ":"'],
    ['https://user:a%0D%0Ab@example.com/', 'password contains a control character'],
    ['https://us%00er:pw@example.com/', 'user name contains a control character'],
  ])('%s is refused: %s', (url, problem) => {
    const r = userinfoOf(new URL(url));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toContain(problem);
  });
});
