import { describe, expect, it } from 'vitest';
import { cleanCode, secondsUntil } from './countdown';

describe('secondsUntil', () => {
  it('rounds up so "0 s" appears only when the wait is over', () => {
    expect(secondsUntil(10_500, 1_000)).toBe(10);
    expect(secondsUntil(1_001, 1_000)).toBe(1);
    expect(secondsUntil(1_000, 1_000)).toBe(0);
    expect(secondsUntil(1_000, 5_000)).toBe(0);
  });
});

describe('cleanCode', () => {
  it('keeps digits only, up to the code length', () => {
    expect(cleanCode(' 123-456 ', 6)).toBe('123456');
    expect(cleanCode('12 34 56 78', 6)).toBe('123456');
    expect(cleanCode('abc', 6)).toBe('');
  });
});
