import { describe, expect, it } from 'vitest';
import { checkEmbedOrigin, safeEmbedOrigins } from './embedOrigins';

const origin = (value: string, mode: 'test' | 'live' = 'live') => {
  const c = checkEmbedOrigin(value, mode);
  return c.ok ? c.origin : null;
};

describe('checkEmbedOrigin', () => {
  it('accepts https origins in their origin form', () => {
    expect(origin('https://shop.example')).toBe('https://shop.example');
    expect(origin('HTTPS://Shop.Example:443/')).toBe('https://shop.example');
    expect(origin('https://shop.example:8443')).toBe('https://shop.example:8443');
    expect(origin('https://bücher.example')).toBe('https://xn--bcher-kva.example');
    expect(origin('https://203.0.113.7')).toBe('https://203.0.113.7');
    expect(origin('https://[2001:db8::1]:444')).toBe('https://[2001:db8::1]:444');
    expect(origin('https://localhost')).toBe('https://localhost');
  });

  it('refuses anything that widens or breaks a CSP source list', () => {
    for (const v of [
      '*',
      'https://*',
      'https://*.shop.example',
      'https://shop.example:*',
      'https://a.example;script-src',
      'https://a.example,https://b.example',
      'https://a.example https://b.example',
      ' https://a.example',
      'https://a.exa\tmple',
      'https://a.exa\nmple',
      'https://a%3Bb.example',
      "https://a.example'",
      'https://a_b.example',
      'https://a.example.',
      'https://-a.example',
    ]) {
      expect(origin(v), v).toBeNull();
    }
  });

  it('refuses paths, queries, fragments, user info and other schemes', () => {
    for (const v of [
      'https://a.example/path',
      'https://a.example/?',
      'https://a.example?x=1',
      'https://a.example#top',
      'https://user@a.example',
      'https://user:pw@a.example',
      'ftp://a.example',
      'data:text/html,x',
      'null',
      '',
      'shop.example',
    ]) {
      expect(origin(v), v).toBeNull();
    }
  });

  it('accepts http for loopback hosts in test mode only', () => {
    for (const v of [
      'http://localhost',
      'http://localhost:5173',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
    ]) {
      expect(origin(v, 'test'), v).toBe(v);
      const live = checkEmbedOrigin(v, 'live');
      expect(live.ok, v).toBe(false);
      if (!live.ok) expect(live.message).toContain('test mode');
    }
    expect(origin('http://shop.example', 'test')).toBeNull();
    expect(origin('http://127.0.0.2', 'test')).toBeNull();
  });

  it('names the entry in its message', () => {
    const c = checkEmbedOrigin('https://*.shop.example', 'live');
    expect(c).toEqual({
      ok: false,
      message:
        '"https://*.shop.example": wildcards are not accepted; list each origin (at most 20)',
    });
  });
});

describe('safeEmbedOrigins', () => {
  it('keeps only valid origins, normalised and once each', () => {
    expect(
      safeEmbedOrigins(
        [
          'https://shop.example/',
          'https://shop.example',
          "https://a.example; script-src 'unsafe-inline'",
          'https://*.evil.example',
          'http://localhost:8080',
        ],
        'live',
      ),
    ).toEqual(['https://shop.example']);
    expect(safeEmbedOrigins(['http://localhost:8080'], 'test')).toEqual(['http://localhost:8080']);
  });
});
