import { describe, expect, it } from 'vitest';
import { pickVoice, type VoiceInfo } from './pickVoice';

const v = (name: string, lang: string, localService = false, isDefault = false): VoiceInfo => ({
  name,
  lang,
  localService,
  default: isDefault,
});

describe('pickVoice', () => {
  const voices = [
    v('English default', 'en-US', true, true),
    v('Google Deutsch', 'de-DE'),
    v('Anna (Female)', 'de-AT', false),
    v('Markus Male', 'de-DE', true),
    v('Norsk', 'nb-NO', true),
  ];

  it('only answers a voice of the session language', () => {
    expect(pickVoice(voices, 'ru', 'female')).toBeNull();
    expect(pickVoice(voices, 'no', undefined)?.name).toBe('Norsk');
  });

  it("prefers the avatar's gender, then offline voices", () => {
    expect(pickVoice(voices, 'de', 'female')?.name).toBe('Anna (Female)');
    expect(pickVoice(voices, 'de', 'male')?.name).toBe('Markus Male');
    expect(pickVoice(voices, 'de', 'unknown')?.name).toBe('Markus Male');
  });

  it('does not take "female" for "male"', () => {
    expect(
      pickVoice([v('Female one', 'en-GB'), v('Plain', 'en-GB', true)], 'en', 'male')?.name,
    ).toBe('Plain');
  });
});
