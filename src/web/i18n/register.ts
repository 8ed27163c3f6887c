/**
 * The one register each language speaks to the user in, and words that belong to the other one.
 * A locale file that uses any of them mixes registers (Spanish "Siga…" beside "Sigue…").
 * Checked over the locale files by register.test.ts.
 */
export const REGISTERS: Record<string, { register: string; forbidden: readonly string[] }> = {
  en: { register: 'you', forbidden: [] },
  // Informal tú, as the rest of the page: no usted, none of its imperatives.
  es: {
    register: 'tú',
    forbidden: [
      'usted',
      'ustedes',
      'siga',
      'mire',
      'gire',
      'acérquese',
      'aléjese',
      'colóquese',
      'asegúrese',
      'permita',
      'vuelva',
      'ciérrela',
      'tome',
      'mantenga',
      'manténgala',
      'encienda',
      'sujete',
      'limpie',
      'busque',
      'incline',
      'acerque',
      'ponga',
      'elija',

      'pulse',
      'escriba',
      'introduzca',
      'compruebe',
      'intente',
      'no se mueva',
    ],
  },
  de: {
    register: 'Sie',
    forbidden: ['du', 'dich', 'dir', 'dein', 'deine', 'deinen', 'deinem', 'deiner', 'deines'],
  },
  fr: { register: 'vous', forbidden: ['tu', 'toi', 'ton', 'tes'] },
  it: { register: 'tu', forbidden: ['Lei', 'La preghiamo'] },
  pt: { register: 'você', forbidden: ['tu', 'teu', 'tua', 'teus', 'tuas', 'contigo'] },
  no: { register: 'du', forbidden: ['Dem', 'Deres'] },
  id: { register: 'Anda', forbidden: ['kamu', 'kau', 'engkau', 'dikau'] },
  ru: {
    register: 'вы',
    forbidden: ['ты', 'тебя', 'тебе', 'тобой', 'твой', 'твоя', 'твоё', 'твои', 'твоего', 'твою'],
  },
};

/**
 * The forbidden words a text uses, as whole words (any script). Lower-case words match in any
 * case; a word with a capital (Norwegian "De", Italian "Lei") only as written, since the lower-case
 * form is another word.
 *
 * @example
 * offRegister('Siga la indicación', ['siga']); // ['siga']
 */
export function offRegister(text: string, forbidden: readonly string[]): string[] {
  return forbidden.filter((word) => {
    const flags = word === word.toLowerCase() ? 'iu' : 'u';
    return new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, flags).test(text);
  });
}
