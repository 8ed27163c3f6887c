import { describe, expect, it } from 'vitest';
import { closeWithin } from './closeWithin';

describe('closeWithin', () => {
  it('says closed, failed or late', async () => {
    expect(await closeWithin(async () => {}, 1000)).toBe('closed');
    expect(
      await closeWithin(async () => {
        throw new Error('boom');
      }, 1000),
    ).toBe('failed');
    const started = Date.now();
    expect(await closeWithin(() => new Promise<void>(() => {}), 50)).toBe('late');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
