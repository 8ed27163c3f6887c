import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkMediaUrl, mediaSignature, signMediaUrl } from './signing';

const SECRET = Buffer.alloc(32, 7);
const NOW = 1_750_000_000_000;
const EXPIRES = NOW + 15 * 60 * 1000;

describe('signed media URLs', () => {
  it('has the documented shape: HMAC-SHA256 of "id.expires" in hex', () => {
    const url = signMediaUrl({
      secret: SECRET,
      publicUrl: 'https://idv.example/',
      id: 'med_1',
      expires: EXPIRES,
    });
    const sig = mediaSignature(SECRET, 'med_1', EXPIRES);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(url).toBe(`https://idv.example/media/med_1?expires=${EXPIRES}&sig=${sig}`);
    expect(checkMediaUrl(SECRET, 'med_1', String(EXPIRES), sig, NOW)).toBe('ok');
  });

  it('expires at `expires`, not a millisecond later', () => {
    const sig = mediaSignature(SECRET, 'med_1', EXPIRES);
    expect(checkMediaUrl(SECRET, 'med_1', String(EXPIRES), sig, EXPIRES - 1)).toBe('ok');
    expect(checkMediaUrl(SECRET, 'med_1', String(EXPIRES), sig, EXPIRES)).toBe('expired');
  });

  it('refuses missing, malformed and non-canonical parts', () => {
    const sig = mediaSignature(SECRET, 'med_1', EXPIRES);
    const e = String(EXPIRES);
    expect(checkMediaUrl(SECRET, 'med_1', undefined, sig, NOW)).toBe('invalid');
    expect(checkMediaUrl(SECRET, 'med_1', e, undefined, NOW)).toBe('invalid');
    expect(checkMediaUrl(SECRET, 'med_1', `0${e}`, sig, NOW)).toBe('invalid');
    expect(checkMediaUrl(SECRET, 'med_1', `${e}.0`, sig, NOW)).toBe('invalid');
    expect(checkMediaUrl(SECRET, 'med_1', e, sig.toUpperCase(), NOW)).toBe('invalid');
    expect(checkMediaUrl(SECRET, 'med_1', e, sig.slice(0, 63), NOW)).toBe('invalid');
    // Signed with another secret.
    expect(checkMediaUrl(Buffer.alloc(32, 8), 'med_1', e, sig, NOW)).toBe('invalid');
  });

  it('refuses any change of id, expires or sig (a forged URL is invalid even when past)', () => {
    const arbId = fc.stringMatching(/^med_[0-9a-f]{1,24}$/);
    fc.assert(
      fc.property(
        arbId,
        arbId,
        fc.integer({ min: 0, max: 2 * EXPIRES }),
        fc.integer({ min: 0, max: 2 * EXPIRES }),
        fc.integer({ min: 0, max: 63 }),
        fc.integer({ min: 1, max: 15 }),
        (id, otherId, expires, otherExpires, at, flip) => {
          const sig = mediaSignature(SECRET, id, expires);
          const now = Math.max(0, expires - 1);
          expect(checkMediaUrl(SECRET, id, String(expires), sig, now)).toBe(
            expires === 0 ? 'expired' : 'ok',
          );
          if (otherId !== id)
            expect(checkMediaUrl(SECRET, otherId, String(expires), sig, now)).toBe('invalid');
          if (otherExpires !== expires) {
            expect(checkMediaUrl(SECRET, id, String(otherExpires), sig, 0)).toBe('invalid');
          }
          const digit = (parseInt(sig[at] ?? '0', 16) ^ flip).toString(16);
          const changed = sig.slice(0, at) + digit + sig.slice(at + 1);
          expect(checkMediaUrl(SECRET, id, String(expires), changed, now)).toBe('invalid');
        },
      ),
      { numRuns: 300 },
    );
  });
});
