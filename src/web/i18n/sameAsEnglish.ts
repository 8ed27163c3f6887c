/**
 * Strings that may read exactly as in English, per language, each with its reason. Anything else
 * equal to the English text fails the locale test as untranslated.
 */
export const SAME_AS_ENGLISH: Record<string, Record<string, string>> = {
  fr: {
    'captions.guide': '"Guide" is the French word too.',
    'document.types.visa': '"Visa" is the French word too.',
  },
  id: { 'document.types.visa': '"Visa" is the Indonesian word too.' },
};
