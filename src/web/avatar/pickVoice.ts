import { baseLanguage } from '../i18n/pickLanguage';

/** The parts of a `SpeechSynthesisVoice` the choice looks at. */
export interface VoiceInfo {
  name: string;
  lang: string;
  localService: boolean;
  default: boolean;
}

/**
 * Chooses the voice the avatar speaks with: one for the session's language (none at all if the
 * browser has none, rather than reading French with an English voice), preferring a voice whose
 * name says the avatar's gender, then voices that work offline, then the browser's default.
 *
 * @example
 * pickVoice([{ name: 'Google français', lang: 'fr-FR', localService: false, default: false }], 'fr', 'female');
 * // the French voice
 */
export function pickVoice<V extends VoiceInfo>(
  voices: readonly V[],
  lang: string,
  gender: string | undefined,
): V | null {
  const wanted = baseLanguage(lang);
  const candidates = voices.filter((v) => baseLanguage(v.lang) === wanted);
  if (candidates.length === 0) return null;
  const genderWord =
    gender === 'female' ? /\b(female|woman)\b/i : gender === 'male' ? /\b(male|man)\b/i : null;
  const score = (v: V) =>
    (genderWord?.test(v.name) ? 4 : 0) + (v.localService ? 2 : 0) + (v.default ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a))[0] ?? null;
}
