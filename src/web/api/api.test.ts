import { describe, expect, it } from 'vitest';
import { ClientApiError, errorFromResponse } from './errors';
import { addressWithSession, takeHandoff, takeSecret } from './secret';
import { secretTag, storageTokenStore } from './token';
import { classifyError } from '../machine/pageError';

/** A `Storage` kept in a Map, as `sessionStorage` is per tab. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

describe('takeSecret', () => {
  it('reads the secret and gives the address without it, other parameters and hash kept', () => {
    expect(takeSecret('https://x.test/verify?client_secret=cs_1&a=b#h')).toEqual({
      secret: 'cs_1',
      cleanUrl: '/verify?a=b#h',
    });
    expect(takeSecret('https://x.test/verify?client_secret=cs_1')).toEqual({
      secret: 'cs_1',
      cleanUrl: '/verify',
    });
  });

  it('has no secret for a bare or empty parameter', () => {
    expect(takeSecret('https://x.test/').secret).toBeNull();
    expect(takeSecret('https://x.test/verify?client_secret=').secret).toBeNull();
  });
});

describe('takeHandoff', () => {
  it("reads a phone's hand-off code and gives the address without it", () => {
    expect(takeHandoff('/verify?handoff=K7QPX2MZ9RTA&a=b#h')).toEqual({
      handoff: 'K7QPX2MZ9RTA',
      cleanUrl: '/verify?a=b#h',
    });
    expect(takeHandoff('/verify?a=b')).toEqual({ handoff: null, cleanUrl: '/verify?a=b' });
    expect(takeHandoff('/verify?handoff=%20').handoff).toBeNull();
  });
});

describe('addressWithSession', () => {
  it('adds the session id to the clean address, once, other parameters and hash kept', () => {
    expect(addressWithSession('/verify?a=b#h', 'sess_1')).toBe('/verify?a=b&session=sess_1#h');
    expect(addressWithSession('/verify', 'sess_1')).toBe('/verify?session=sess_1');
    expect(addressWithSession('/verify?session=sess_0', 'sess_1')).toBe('/verify?session=sess_1');
  });
});

describe('the token store', () => {
  it('keeps the token and the tag of its secret, and forgets them', () => {
    const store = storageTokenStore(memoryStorage());
    expect(store.read()).toBeNull();
    store.write({ token: 'ct_1', secretTag: secretTag('cs_1') });
    expect(store.read()).toEqual({ token: 'ct_1', secretTag: secretTag('cs_1') });
    store.clear();
    expect(store.read()).toBeNull();
  });

  it('ignores what it cannot read', () => {
    const storage = memoryStorage();
    storage.setItem('idv.client', '{not json');
    expect(storageTokenStore(storage).read()).toBeNull();
    expect(storageTokenStore(undefined).read()).toBeNull();
  });

  it('tells one secret from another', () => {
    expect(secretTag('cs_a')).toBe(secretTag('cs_a'));
    expect(secretTag('cs_a')).not.toBe(secretTag('cs_b'));
  });
});

describe('errors', () => {
  it("reads the spec's error body", () => {
    const e = errorFromResponse(401, {
      error: { type: 'authentication_error', message: 'used', code: 'client_secret_used' },
    });
    expect([e.status, e.type, e.message, e.code]).toEqual([
      401,
      'authentication_error',
      'used',
      'client_secret_used',
    ]);
    expect(classifyError(e)).toBe('secret_used');
  });

  it('falls back to the status when the body is not the spec format', () => {
    expect(errorFromResponse(502, '<html>').type).toBe('api_error');
    expect(errorFromResponse(401, null).type).toBe('authentication_error');
    expect(errorFromResponse(429, {}).type).toBe('rate_limit_error');
  });

  it('sorts failures into the pages the user sees', () => {
    expect(classifyError(new ClientApiError(0, 'network_error', 'x'))).toBe('network');
    expect(
      classifyError(new ClientApiError(401, 'authentication_error', 'x', 'client_token_invalid')),
    ).toBe('session_gone');
    expect(classifyError(new ClientApiError(500, 'api_error', 'x'))).toBe('unexpected');
    expect(classifyError(new Error('boom'))).toBe('unexpected');
  });
});
