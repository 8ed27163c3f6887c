import { describe, expect, it } from 'vitest';
import { spokenText } from './spokenText';

describe('spokenText', () => {
  it('keeps the words as written, trimmed', () => {
    expect(spokenText('  Look straight ahead.  ')).toBe('Look straight ahead.');
  });

  it('drops a leading Say: marker in any case, but not one inside the text', () => {
    expect(spokenText('Say: Remove your glasses.')).toBe('Remove your glasses.');
    expect(spokenText('SAY:Smile')).toBe('Smile');
    expect(spokenText('Please say: cheese')).toBe('Please say: cheese');
  });

  it('is null for nothing to say', () => {
    expect(spokenText(undefined)).toBeNull();
    expect(spokenText('')).toBeNull();
    expect(spokenText('Say:   ')).toBeNull();
    expect(spokenText(42)).toBeNull();
  });
});
