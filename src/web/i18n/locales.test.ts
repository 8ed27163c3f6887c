import { describe, expect, it } from 'vitest';
import { checkLocale, type LocaleTree } from './checkLocale';
import { SUPPORTED_LANGS } from './pickLanguage';
import { SAME_AS_ENGLISH } from './sameAsEnglish';

const files = import.meta.glob<LocaleTree>('../../../locales/*.json', {
  eager: true,
  import: 'default',
});
const locales = Object.fromEntries(
  Object.entries(files).map(([path, tree]) => [path.replace(/^.*\/(\w+)\.json$/, '$1'), tree]),
);
const en = locales.en!;

describe('locales', () => {
  it('has a file for each of the nine languages and no other', () => {
    expect(Object.keys(locales).sort()).toEqual([...SUPPORTED_LANGS].sort());
  });

  for (const lang of SUPPORTED_LANGS.filter((l) => l !== 'en')) {
    it(`${lang}: every key, no extra key, placeholders kept, nothing left in English`, () => {
      const allowed = Object.keys(SAME_AS_ENGLISH[lang] ?? {});
      expect(checkLocale(en, locales[lang]!, allowed)).toEqual([]);
    });
  }

  it('lists no exception that is not needed', () => {
    for (const [lang, keys] of Object.entries(SAME_AS_ENGLISH)) {
      const strict = checkLocale(en, locales[lang]!, []);
      for (const key of Object.keys(keys)) {
        expect(strict, `${lang}:${key}`).toContainEqual({ key, problem: 'untranslated' });
      }
    }
  });
});

describe('checkLocale', () => {
  const english: LocaleTree = {
    a: { hello: 'Hello {{name}}', bye: 'Goodbye' },
    ok: 'OK',
  };

  it('reports a missing key, an extra key and an English copy', () => {
    expect(
      checkLocale(english, { a: { hello: 'Bonjour {{name}}' }, ok: 'OK', x: 'y' }, []),
    ).toEqual([
      { key: 'a.bye', problem: 'missing' },
      { key: 'ok', problem: 'untranslated' },
      { key: 'x', problem: 'extra' },
    ]);
  });

  it('accepts a listed exception', () => {
    expect(
      checkLocale(english, { a: { hello: 'Hallo {{name}}', bye: 'Tschüss' }, ok: 'OK' }, ['ok']),
    ).toEqual([]);
  });

  it('reports lost or renamed placeholders, empty strings and non-strings', () => {
    expect(
      checkLocale(english, { a: { hello: 'Hallo {{nom}}', bye: ' ' }, ok: { deep: 'x' } }, []),
    ).toEqual([
      { key: 'a.hello', problem: 'placeholders', detail: 'expected {{name}}' },
      { key: 'a.bye', problem: 'empty' },
      { key: 'ok', problem: 'missing' },
      { key: 'ok.deep', problem: 'extra' },
    ]);
  });
});
