import { describe, expect, it } from 'vitest';
import { newSigningSecret, rotateSecrets, ROTATION_OVERLAP_MS, signingSecretsAt } from './secrets';

describe('signing secrets', () => {
  it('are whsec_ and 32 random bytes, never repeated', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('rotation keeps the old secret signing for 24 hours beside the new one', () => {
    const start = [{ secret: 'old', createdAt: 0, expiresAt: null }];
    const rotated = rotateSecrets(start, 'new', 1_000);
    expect(signingSecretsAt(rotated, 1_000)).toEqual(['new', 'old']);
    expect(signingSecretsAt(rotated, 1_000 + ROTATION_OVERLAP_MS - 1)).toEqual(['new', 'old']);
    expect(signingSecretsAt(rotated, 1_000 + ROTATION_OVERLAP_MS)).toEqual(['new']);
  });

  it("a second rotation keeps the first one's earlier expiry and drops expired secrets", () => {
    const once = rotateSecrets([{ secret: 'a', createdAt: 0, expiresAt: null }], 'b', 0);
    const twice = rotateSecrets(once, 'c', 1_000);
    expect(twice.map((s) => [s.secret, s.expiresAt])).toEqual([
      ['c', null],
      ['b', 1_000 + ROTATION_OVERLAP_MS],
      ['a', ROTATION_OVERLAP_MS],
    ]);
    const later = rotateSecrets(twice, 'd', ROTATION_OVERLAP_MS + 5);
    expect(later.map((s) => s.secret)).toEqual(['d', 'c', 'b']);
  });
});
