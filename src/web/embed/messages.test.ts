import { describe, expect, it } from 'vitest';
import { normalizeOrigin, targetOrigins } from './messages';

describe('normalizeOrigin', () => {
  it('canonicalises case, trailing slash and default ports', () => {
    expect(normalizeOrigin('HTTPS://Shop.Example:443/')).toBe('https://shop.example');
    expect(normalizeOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(normalizeOrigin('http://a.test:80')).toBe('http://a.test');
  });

  it('refuses wildcards, paths, non-web schemes and garbage', () => {
    for (const bad of [
      '*',
      'https://*.shop.example',
      'https://a.test/path',
      'https://a.test/?q=1',
      'javascript:alert(1)',
      'file:///etc',
      'null',
      '',
      'https://user:pw@a.test',
    ]) {
      expect(normalizeOrigin(bad), bad).toBeNull();
    }
  });
});

describe('targetOrigins', () => {
  const allowed = ['https://a.test', 'https://B.test/', '*', 'https://a.test'];

  it('never includes a wildcard and removes duplicates', () => {
    expect(targetOrigins(allowed, undefined)).toEqual(['https://a.test', 'https://b.test']);
  });

  it('narrows to the known parent when it is allowed', () => {
    expect(targetOrigins(allowed, 'https://b.test')).toEqual(['https://b.test']);
  });

  it('posts nowhere when the known parent is not allowed', () => {
    expect(targetOrigins(allowed, 'https://evil.test')).toEqual([]);
    expect(targetOrigins(allowed, 'https://a.test.evil.test')).toEqual([]);
    expect(targetOrigins(allowed, 'http://a.test')).toEqual([]);
  });

  it('posts nowhere when nothing is allowed', () => {
    expect(targetOrigins([], undefined)).toEqual([]);
    expect(targetOrigins(['*'], 'https://a.test')).toEqual([]);
  });
});
