import { describe, expect, it } from 'vitest';
import { fitWithin, MAX_PHOTO_BYTES, uploadPlan } from './upload';

describe('uploadPlan', () => {
  it('sends a JPEG within the limit as it is', () => {
    expect(uploadPlan({ type: 'image/jpeg', size: 500_000 })).toBe('asIs');
    expect(uploadPlan({ type: 'image/jpeg', size: MAX_PHOTO_BYTES })).toBe('asIs');
  });

  it('encodes a large JPEG or any PNG again', () => {
    expect(uploadPlan({ type: 'image/jpeg', size: MAX_PHOTO_BYTES + 1 })).toBe('reencode');
    expect(uploadPlan({ type: 'image/png', size: 1000 })).toBe('reencode');
  });

  it('refuses other files', () => {
    expect(uploadPlan({ type: 'application/pdf', size: 1000 })).toBe('refuse');
    expect(uploadPlan({ type: '', size: 1000 })).toBe('refuse');
  });
});

describe('fitWithin', () => {
  it('shrinks the longest side to the limit, keeping the ratio', () => {
    expect(fitWithin(4000, 3000, 2400)).toEqual({ width: 2400, height: 1800 });
    expect(fitWithin(3000, 4000, 2400)).toEqual({ width: 1800, height: 2400 });
  });

  it('never enlarges', () => {
    expect(fitWithin(800, 600, 2400)).toEqual({ width: 800, height: 600 });
  });
});
