/** A nested dictionary of UI strings, as in `locales/<code>.json`. */
export interface LocaleTree {
  [key: string]: string | LocaleTree;
}

/** One thing wrong with a locale compared with English. */
export interface LocaleProblem {
  key: string;
  problem: 'missing' | 'extra' | 'untranslated' | 'empty' | 'placeholders' | 'not_a_string';
  detail?: string;
}

/**
 * Flattens a locale tree into dotted keys.
 *
 * @example
 * flattenLocale({ a: { b: 'x' } }); // { 'a.b': 'x' }
 */
export function flattenLocale(tree: LocaleTree, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      Object.assign(out, flattenLocale(value, path));
    } else {
      out[path] = value;
    }
  }
  return out;
}

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

/**
 * Compares a locale with the English one: every key present, no extra key, no empty string, the
 * same `{{placeholders}}`, and no string left as an English copy unless its key is listed in
 * `sameAsEnglish` (brand names, codes and words that are spelt the same in that language).
 *
 * @example
 * checkLocale({ a: 'Hello' }, { a: 'Hello', b: 'x' }, []);
 * // [{ key: 'a', problem: 'untranslated' }, { key: 'b', problem: 'extra' }]
 */
export function checkLocale(
  english: LocaleTree,
  other: LocaleTree,
  sameAsEnglish: readonly string[],
): LocaleProblem[] {
  const en = flattenLocale(english);
  const xx = flattenLocale(other);
  const allowed = new Set(sameAsEnglish);
  const problems: LocaleProblem[] = [];
  for (const [key, enValue] of Object.entries(en)) {
    if (!(key in xx)) {
      problems.push({ key, problem: 'missing' });
      continue;
    }
    const value = xx[key];
    if (typeof value !== 'string') {
      problems.push({ key, problem: 'not_a_string' });
      continue;
    }
    if (value.trim() === '') {
      problems.push({ key, problem: 'empty' });
      continue;
    }
    const enText = String(enValue);
    if (placeholders(enText).join() !== placeholders(value).join()) {
      problems.push({
        key,
        problem: 'placeholders',
        detail: `expected {{${placeholders(enText).join('}}, {{')}}}`,
      });
    }
    if (value === enText && !allowed.has(key)) problems.push({ key, problem: 'untranslated' });
  }
  for (const key of Object.keys(xx)) {
    if (!(key in en)) problems.push({ key, problem: 'extra' });
  }
  return problems;
}
