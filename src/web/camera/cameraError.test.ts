import { describe, expect, it } from 'vitest';
import { classifyCameraError, meansNoCamera } from './cameraError';

describe('classifyCameraError', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['PermissionDeniedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotReadableError', 'busy'],
    ['TrackStartError', 'busy'],
    ['AbortError', 'busy'],
    ['NotFoundError', 'missing'],
    ['DevicesNotFoundError', 'missing'],
    ['OverconstrainedError', 'missing'],
    ['TypeError', 'other'],
  ] as const)('%s is %s', (name, kind) => {
    expect(classifyCameraError(new DOMException('x', name))).toBe(kind);
    expect(classifyCameraError({ name })).toBe(kind);
  });

  it('anything without a name is other', () => {
    expect(classifyCameraError(undefined)).toBe('other');
    expect(classifyCameraError(null)).toBe('other');
    expect(classifyCameraError('NotAllowedError')).toBe('other');
    expect(classifyCameraError({ name: 42 })).toBe('other');
  });

  it('only a missing camera means there is none', () => {
    expect(meansNoCamera('missing')).toBe(true);
    expect(meansNoCamera('busy')).toBe(false);
    expect(meansNoCamera('denied')).toBe(false);
    expect(meansNoCamera('other')).toBe(false);
  });
});
