import { describe, expect, it } from 'vitest';
import { clientSecret, orderedId, sessionOfSecret } from './ids';

describe('clientSecret', () => {
  it('is cs_, 32 random bytes in base64url, then the session it names', () => {
    const s = clientSecret('sess_019a8f0c2b1e00004c9a0f3b');
    expect(s).toMatch(/^cs_[A-Za-z0-9_-]{43}\.sess_019a8f0c2b1e00004c9a0f3b$/);
    expect(sessionOfSecret(s)).toBe('sess_019a8f0c2b1e00004c9a0f3b');
  });

  it('keeps 256 random bits in each secret of one session', () => {
    const heads = new Set(Array.from({ length: 1000 }, () => clientSecret('sess_1').slice(0, 46)));
    expect(heads.size).toBe(1000);
  });

  it('names no session for secrets without one', () => {
    expect(sessionOfSecret('cs_019a8f0c2b1eJx0abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG')).toBe(
      null,
    );
    expect(sessionOfSecret('cs_sess_1')).toBe(null);
    expect(sessionOfSecret('cs_abc.')).toBe(null);
    expect(sessionOfSecret('ct_abc.sess_1')).toBe(null);
  });
});

describe('orderedId', () => {
  it('orders ids made within one millisecond by a counter', () => {
    const ids = Array.from({ length: 50 }, () => orderedId('sess'));
    expect([...ids].sort()).toEqual(ids);
  });
});
