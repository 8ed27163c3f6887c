import { describe, expect, it } from 'vitest';
import de from '../../../../locales/de.json';
import en from '../../../../locales/en.json';
import { permissionsTexts } from './texts';

type Words = Record<string, unknown>;
const say = (words: Words, key: string): string => {
  const [group = '', name = ''] = key.split('.');
  const text = (words[group] as Record<string, unknown> | undefined)?.[name];
  if (typeof text !== 'string') throw new Error(`no text for ${key}`);
  return text;
};
const allTexts = (words: Words, camera: boolean, microphone: boolean, voiceOnly = false) =>
  Object.values(permissionsTexts({ camera, microphone }, voiceOnly))
    .map((key) => say(words, key))
    .join(' ');

describe('permissionsTexts', () => {
  it('a camera-only request never mentions a microphone', () => {
    expect(allTexts(en as Words, true, false)).toMatch(/camera/i);
    expect(allTexts(en as Words, true, false)).not.toMatch(/microphone/i);
    expect(allTexts(de as Words, true, false)).not.toMatch(/mikrofon/i);
  });

  it('a microphone-only request never mentions a camera', () => {
    expect(allTexts(en as Words, false, true)).toMatch(/microphone/i);
    expect(allTexts(en as Words, false, true)).not.toMatch(/camera/i);
    expect(allTexts(en as Words, false, true, true)).not.toMatch(/camera/i);
    expect(allTexts(de as Words, false, true, true)).not.toMatch(/kamera/i);
  });

  it('a request for both names both', () => {
    const both = say(
      en as Words,
      permissionsTexts({ camera: true, microphone: true }, false).heading,
    );
    expect(both).toBe('Camera and microphone');
  });
});
