import { describe, expect, it } from 'vitest';
import { looksLikeEmail, maskEmail, maskPhone, normalizePhone } from './mask';

describe('masking', () => {
  it('keeps one letter and the domain of an email', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j•••@example.com');
    expect(maskEmail('x@y.org')).toBe('x•••@y.org');
  });

  it('never shows a malformed address', () => {
    expect(maskEmail('@nobody')).toBe('•••');
    expect(maskEmail('plain')).toBe('•••');
  });

  it('shows the last two digits of a phone', () => {
    expect(maskPhone('+44 7700 900123')).toBe('+4•••••23');
    expect(maskPhone('0612345678')).toBe('0•••••78');
    expect(maskPhone('12')).toBe('•••');
  });
});

describe('input checks', () => {
  it('accepts ordinary addresses and refuses obvious slips', () => {
    expect(looksLikeEmail('name@example.com')).toBe(true);
    expect(looksLikeEmail(' name+tag@sub.example.co.uk ')).toBe(true);
    for (const bad of ['name@example', 'name example@x.com', 'name@@x.com', '', '@x.com']) {
      expect(looksLikeEmail(bad), bad).toBe(false);
    }
  });

  it('accepts E.164 numbers typed with spaces and refuses local forms', () => {
    expect(normalizePhone('+44 7700-900123')).toBe('+447700900123');
    expect(normalizePhone('+1 (415) 555-0100')).toBe('+14155550100');
    expect(normalizePhone('07700 900123')).toBeNull();
    expect(normalizePhone('+0123456789')).toBeNull();
    expect(normalizePhone('+1234')).toBeNull();
  });
});
