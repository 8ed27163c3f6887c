import { describe, expect, it } from 'vitest';
import { baseLanguage, pageLanguageBeforeSession, pickLanguage } from './pickLanguage';

describe('pickLanguage', () => {
  it('takes the first browser preference the session offers', () => {
    expect(pickLanguage(['de-CH', 'fr-FR', 'en'], ['en', 'fr'], 'en')).toBe('fr');
    expect(pickLanguage(['ru', 'en'], ['en', 'ru'], 'en')).toBe('ru');
  });

  it('matches region and script variants by their primary subtag', () => {
    expect(pickLanguage(['pt-BR'], ['en', 'pt'], 'en')).toBe('pt');
    expect(pickLanguage(['es_419'], ['es'], 'en')).toBe('es');
    expect(pickLanguage(['ID-id'], ['en', 'id'], 'en')).toBe('id');
  });

  it('folds Bokmål, Nynorsk and the retired Indonesian code into the spec codes', () => {
    expect(pickLanguage(['nb-NO'], ['en', 'no'], 'en')).toBe('no');
    expect(pickLanguage(['nn'], ['en', 'no'], 'en')).toBe('no');
    expect(pickLanguage(['in'], ['en', 'id'], 'en')).toBe('id');
  });

  it('falls back to the default language when nothing matches', () => {
    expect(pickLanguage(['ja', 'zh-CN'], ['en', 'fr', 'de'], 'de')).toBe('de');
    expect(pickLanguage([], ['en', 'fr'], 'fr')).toBe('fr');
  });

  it('never answers a language the session does not offer', () => {
    expect(pickLanguage(['ja'], ['fr', 'it'], 'en')).toBe('fr');
  });

  it('uses the default when the session offers no list', () => {
    expect(pickLanguage(['fr'], [], 'en')).toBe('en');
  });
});

describe('baseLanguage', () => {
  it('lower-cases and strips regions', () => {
    expect(baseLanguage(' EN-gb ')).toBe('en');
    expect(baseLanguage('zh-Hant-TW')).toBe('zh');
  });
});

describe('pageLanguageBeforeSession', () => {
  it('chooses among the nine languages, else English', () => {
    expect(pageLanguageBeforeSession(['ja', 'it-IT'])).toBe('it');
    expect(pageLanguageBeforeSession(['ja'])).toBe('en');
  });
});
