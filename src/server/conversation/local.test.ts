import { describe, expect, it } from 'vitest';
import {
  LocalConditionEvaluator,
  LocalPromptRenderer,
  conditionMatches,
  numberIn,
  polarityOf,
} from './local';

describe('the local condition matcher', () => {
  it('reads yes, no and refusals in the nine languages', () => {
    const yes = {
      en: 'Yes, sure',
      fr: 'Oui, bien sûr',
      de: 'Ja, klar',
      ru: 'Да, конечно',
      es: 'Sí, claro',
      id: 'Iya, setuju',
      no: 'Ja, greit',
      pt: 'Sim, com certeza',
      it: 'Sì, va bene',
    };
    const no = {
      en: 'No',
      fr: 'Non',
      de: 'Nein',
      ru: 'Нет',
      es: 'No, gracias',
      id: 'Tidak',
      no: 'Nei',
      pt: 'Não',
      it: 'No, grazie',
    };
    const refuse = {
      en: "I'd rather not",
      fr: 'Je ne veux pas',
      de: 'Ich will nicht',
      ru: 'Не хочу',
      es: 'No quiero',
      id: 'Saya tidak mau',
      no: 'Jeg vil ikke',
      pt: 'Não quero',
      it: 'Non voglio',
    };
    for (const [lang, text] of Object.entries(yes))
      expect([lang, polarityOf(text)]).toEqual([lang, 'affirmative']);
    for (const [lang, text] of Object.entries(no))
      expect([lang, polarityOf(text)]).toEqual([lang, 'negative']);
    for (const [lang, text] of Object.entries(refuse))
      expect([lang, polarityOf(text)]).toEqual([lang, 'refusal']);
    expect(polarityOf('yes, no problem')).toBe('affirmative');
    expect(polarityOf('the weather')).toBe('unknown');
  });

  it('judges conditions: empty, quoted keywords, numbers, polarity, keywords', () => {
    expect(conditionMatches('', 'anything', 'en')).toBe(true);
    expect(conditionMatches('Otherwise', 'whatever', 'en')).toBe(true);
    expect(conditionMatches('The user says "blue" or "green"', 'I like Green', 'en')).toBe(true);
    expect(conditionMatches('The user says "blue"', 'red', 'en')).toBe(false);
    expect(conditionMatches('The user is older than 18', 'I am 17', 'en')).toBe(false);
    expect(conditionMatches('The user is older than 18', 'dix-neuf', 'fr')).toBe(true);
    expect(conditionMatches('between 1 and 5', 'drei', 'de')).toBe(true);
    expect(conditionMatches('The user agrees', 'да', 'ru')).toBe(true);
    expect(conditionMatches('The user agrees', 'нет', 'ru')).toBe(false);
    expect(conditionMatches('The user does not agree', 'nei', 'no')).toBe(true);
    expect(conditionMatches('The user refuses to continue', 'batal', 'id')).toBe(true);
    expect(conditionMatches('The user mentions a passport', 'I have my passport here', 'en')).toBe(
      true,
    );
    expect(conditionMatches('The user mentions a passport', 'I have an ID card', 'en')).toBe(false);

    expect(numberIn('venti', 'it')).toBe(20);
  });

  it('chooses the first matching outcome, null when none', async () => {
    const e = new LocalConditionEvaluator();
    expect(
      await e.choose({
        conditions: ['The user says no', 'The user agrees'],
        reply: 'Oui',
        lang: 'fr',
      }),
    ).toBe(1);
    expect(await e.choose({ conditions: ['The user says no', ''], reply: 'Oui', lang: 'fr' })).toBe(
      1,
    );
    expect(
      await e.choose({ conditions: ['The user says no'], reply: 'Oui', lang: 'fr' }),
    ).toBeNull();
  });

  it('renders Say: prompts word for word', async () => {
    const r = new LocalPromptRenderer();
    expect(await r.render({ prompt: 'Say:  Hello there ', lang: 'en' })).toBe('Hello there');
    // A descriptive prompt is never said as written (render/render.test.ts has the table).
    expect(await r.render({ prompt: 'Greet the user warmly', lang: 'fr' })).toBe('Bonjour\u00a0!');
  });
});
