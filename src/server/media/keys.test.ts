import { describe, expect, it } from 'vitest';
import { extensionFor, mediaKeyFor, mediaKeyProblem } from './keys';

describe('media keys', () => {
  it('accepts the keys the service makes', () => {
    expect(mediaKeyProblem('sessions/sess_019a8f0c2b1e/med_5d41402abc4b.jpg')).toBeNull();
    expect(mediaKeyProblem(mediaKeyFor('sess_1', 'med_2', 'image/png'))).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['/etc/passwd', /absolute/],
    ['../secret', /segment "\.\."/],
    ['sessions/../../x', /segment "\.\."/],
    ['sessions/./x', /segment "\."/],
    ['a//b', /empty segment/],
    ['a/', /empty segment/],
    ['sessions/.hidden', /segment "\.hidden"/],
    ['Sessions/x', /segment "Sessions"/],
    ['a\\..\\b', /segment/],
    ['a/b c', /segment/],
    ['a/b\u0000', /segment/],
    ['x'.repeat(401), /longer than 400/],
  ])('refuses %j', (key, problem) => {
    expect(mediaKeyProblem(key)).toMatch(problem);
  });

  it('names files by content type', () => {
    expect(mediaKeyFor('sess_1', 'med_2', 'image/jpeg')).toBe('sessions/sess_1/med_2.jpg');
    expect(extensionFor('video/mp4; codecs="avc1"')).toBe('.mp4');
    expect(extensionFor('application/x-unknown')).toBe('.bin');
  });
});
