import { describe, expect, it } from 'vitest';
import type { LocaleTree } from './checkLocale';
import { SUPPORTED_LANGS } from './pickLanguage';
import { offRegister, REGISTERS } from './register';

const files = import.meta.glob<LocaleTree>('../../../locales/*.json', {
  eager: true,
  import: 'default',
});
const locales = Object.fromEntries(
  Object.entries(files).map(([path, tree]) => [path.replace(/^.*\/(\w+)\.json$/, '$1'), tree]),
);

/** Every text of a locale tree with its dotted key. */
function texts(tree: LocaleTree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : texts(value, `${prefix}${key}.`),
  );
}

describe('one register per language', () => {
  it('has a register for each language', () => {
    expect(Object.keys(REGISTERS).sort()).toEqual([...SUPPORTED_LANGS].sort());
  });

  it('finds whole words only, capitals as written', () => {
    expect(offRegister('Siga la indicación', ['siga'])).toEqual(['siga']);
    expect(offRegister('Consigamos', ['siga'])).toEqual([]);
    expect(offRegister('Fant de', ['De'])).toEqual([]);
    expect(offRegister('Кто ты?', ['ты'])).toEqual(['ты']);
  });

  for (const lang of SUPPORTED_LANGS) {
    it(`${lang}: every text speaks to the user as "${REGISTERS[lang]?.register}"`, () => {
      const forbidden = REGISTERS[lang]?.forbidden ?? [];
      const mixed = texts(locales[lang]!)
        .map(([key, text]) => [key, offRegister(text, forbidden)] as const)
        .filter(([, words]) => words.length > 0);
      expect(mixed).toEqual([]);
    });
  }
});
