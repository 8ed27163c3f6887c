import { describe, expect, it } from 'vitest';
import { promised } from './promised';

describe('promised', () => {
  it('answers every method with a promise of what it returned, and passes the arguments', async () => {
    const calls: number[] = [];
    const wrapped = promised({ add: (a: number, b: number) => (calls.push(a), a + b) });
    const r = wrapped.add(2, 3);
    expect(r).toBeInstanceOf(Promise);
    expect(await r).toBe(5);
    expect(calls).toEqual([2]);
  });
  it('turns a throw into a rejection', async () => {
    const wrapped = promised({
      fail: (): number => {
        throw new Error('no');
      },
    });
    await expect(wrapped.fail()).rejects.toThrow('no');
  });
});
