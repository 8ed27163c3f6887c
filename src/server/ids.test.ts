import { describe, expect, it } from 'vitest';
import { orderedId, orderedSecret } from './ids';

describe('orderedSecret', () => {
  it('starts with the creation time, so later secrets sort after earlier ones', async () => {
    const a = orderedSecret('cs');
    await new Promise((r) => setTimeout(r, 3));
    const b = orderedSecret('cs');
    expect(a < b).toBe(true);
    expect(a).toMatch(/^cs_[0-9a-f]{12}[A-Za-z0-9_-]{43}$/);
    expect(Number.parseInt(a.slice(3, 15), 16)).toBeLessThanOrEqual(Date.now());
  });

  it('keeps 256 random bits after the time part', () => {
    const tails = new Set(Array.from({ length: 1000 }, () => orderedSecret('cs').slice(15)));
    expect(tails.size).toBe(1000);
  });
});

describe('orderedId', () => {
  it('orders ids made within one millisecond by a counter', () => {
    const ids = Array.from({ length: 50 }, () => orderedId('sess'));
    expect([...ids].sort()).toEqual(ids);
  });
});
