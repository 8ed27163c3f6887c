/**
 * Reading the fields of an `extractionSchema` (compat.md §2.3) out of what the user said, without
 * an LLM: plain rules per field type, and the local extractor built on them. The choices are
 * docs/sdk-inputs.md's ("extractionSchema").
 */
import type { ExtractionField } from '../../core/api';
import { normalizeText, numberIn, polarityOf } from './local';
import type { ExtractedData, ExtractedValue, ExtractionInput, FieldExtractor, Turn } from './types';

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/u;

/**
 * The first email address in a reply, as written.
 *
 * @example
 * emailIn('sure, it is Ana.Ruiz@example.com.'); // 'Ana.Ruiz@example.com'
 */
export function emailIn(reply: string): string | null {
  return EMAIL.exec(reply)?.[0] ?? null;
}

/** Month names (1–12) of the languages the date rule reads, accents removed. */
const MONTHS: readonly (readonly string[])[] = [
  'january february march april may june july august september october november december',
  'jan feb mar apr may jun jul aug sep oct nov dec',
  'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre',
  'janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre',
  'januar februar marz april mai juni juli august september oktober november dezember',
  'gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre',
  'janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro',
].map((l) => l.split(' '));

function monthNumber(word: string): number | null {
  for (const list of MONTHS) {
    const i = list.indexOf(word === 'sept' ? 'sep' : word);
    if (i >= 0) return i + 1;
  }
  return null;
}

function isoDate(y: number, m: number, d: number): string | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return t.toISOString().slice(0, 10);
}

const MONTH_WORD = '(\\p{L}+)';
const DAY_MONTH_YEAR = new RegExp(
  `(\\d{1,2})(?:er|st|nd|rd|th|o)? (?:de )?${MONTH_WORD} (?:de )?(\\d{4})`,
  'u',
);
const MONTH_DAY_YEAR = new RegExp(`${MONTH_WORD} (\\d{1,2})(?:st|nd|rd|th)? (\\d{4})`, 'u');

/**
 * The first calendar date in a reply, as ISO 8601 `YYYY-MM-DD`: `1990-05-12`, `12.05.1990`,
 * `12/05/1990` (day first, except month first in English sessions when both readings are
 * possible), or a month name of en/es/fr/de/it/pt ("12 de mayo de 1990", "May 12th, 1990").
 * A day that does not exist is no date; a date-time gives its date.
 *
 * @example
 * dateIn('I was born on May 12th, 1990', 'en'); // '1990-05-12'
 * dateIn('le 3 février 1985', 'fr'); // '1985-02-03'
 */
export function dateIn(reply: string, lang: string): string | null {
  const iso = /(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/.exec(reply);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const num = /\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b/.exec(reply);
  if (num) {
    const a = Number(num[1]);
    const b = Number(num[2]);
    const monthFirst = b > 12 || (a <= 12 && lang === 'en' && num[0].includes('/'));
    return monthFirst ? isoDate(Number(num[3]), a, b) : isoDate(Number(num[3]), b, a);
  }
  const t = normalizeText(reply);
  const dmy = DAY_MONTH_YEAR.exec(t);
  const dm = dmy ? monthNumber(dmy[2] ?? '') : null;
  if (dmy && dm) return isoDate(Number(dmy[3]), dm, Number(dmy[1]));
  const mdy = MONTH_DAY_YEAR.exec(t);
  const md = mdy ? monthNumber(mdy[1] ?? '') : null;
  if (mdy && md) return isoDate(Number(mdy[3]), md, Number(mdy[2]));
  return null;
}

/**
 * The first number in a reply once its emails and dates are left out (a year in a date is not
 * the number asked for).
 *
 * @example
 * numberOf('born 12.05.1990, I earn 52000', 'en'); // 52000
 */
export function numberOf(reply: string, lang: string): number | null {
  const rest = reply
    .replace(new RegExp(EMAIL.source, 'gu'), ' ')
    .replace(/(?<!\d)\d{4}-\d{1,2}-\d{1,2}(?!\d)|\b\d{1,2}[./-]\d{1,2}[./-]\d{4}\b/g, ' ');
  if (dateIn(rest, lang) !== null) return null;
  return numberIn(rest, lang);
}

/**
 * A yes or a no in a reply, in any of the nine languages (the condition matcher's word lists).
 *
 * @example
 * booleanIn('Sí, claro'); // true
 * booleanIn('nope'); // false
 */
export function booleanIn(reply: string): boolean | null {
  const p = polarityOf(reply);
  return p === 'affirmative' ? true : p === 'negative' || p === 'refusal' ? false : null;
}

const NAME_LEAD =
  /(?:my name is|my name's|i am|i'm|call me|it's|me llamo|mi nombre es|soy|je m'appelle|je suis|mon nom est|ich heiße|ich heisse|mein name ist|ich bin|mi chiamo|il mio nome è|sono|meu nome é|me chamo|chamo-me|eu sou)\s+/iu;
const NAME_WORDS = /^[\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*){0,3}/u;
const NAME_ALONE = /^\s*([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*){0,3})\s*[.!]?\s*$/u;

/**
 * A person's name in a reply: the capitalised words after "my name is", "me llamo", "je
 * m'appelle", "ich heiße", "mi chiamo", "meu nome é" and the like, or a reply of one to four
 * capitalised words alone.
 *
 * @example
 * nameIn("Hi, my name is Ana Ruiz."); // 'Ana Ruiz'
 * nameIn('Jean Dupont'); // 'Jean Dupont'
 * nameIn('yes'); // null
 */
export function nameIn(reply: string): string | null {
  const lead = NAME_LEAD.exec(reply);
  if (lead) {
    const words = NAME_WORDS.exec(reply.slice(lead.index + lead[0].length));
    if (words) return words[0];
  }
  const alone = NAME_ALONE.exec(reply);
  if (!alone?.[1]) return null;
  return polarityOf(alone[1]) === 'unknown' ? alone[1] : null;
}

/**
 * The listed value a loose reply means: the value written in the reply (case and accents aside;
 * the earliest when several are), else, when the reply is a yes or a no, the one listed value
 * that says yes or no ("yep" → "Yes", "claro" → "Sí").
 *
 * @example
 * enumValueIn('Yep!', ['Yes', 'No']); // 'Yes'
 * enumValueIn('the premium one', ['basic', 'Premium']); // 'Premium'
 */
export function enumValueIn(reply: string, values: readonly string[]): string | null {
  const r = ` ${normalizeText(reply)} `;
  let best: { at: number; value: string } | null = null;
  for (const value of values) {
    const at = r.indexOf(` ${normalizeText(value)} `);
    if (at >= 0 && (!best || at < best.at)) best = { at, value };
  }
  if (best) return best.value;
  const p = polarityOf(reply);
  if (p === 'unknown') return null;
  const said = p === 'affirmative' ? 'affirmative' : 'negative';
  const same = values.filter((v) => {
    const q = polarityOf(v);
    return (q === 'refusal' ? 'negative' : q) === said;
  });
  return same.length === 1 ? (same[0] ?? null) : null;
}

type StringKind = 'enum' | 'email' | 'name' | 'text';

/**
 * What a string field asks for: one of its `enum` values, an email address or a person's name
 * (its fieldName or description says so), else free text.
 *
 * @example
 * stringKind({ fieldName: 'fullName', type: 'string', description: 'The name' }); // 'name'
 */
export function stringKind(f: ExtractionField): StringKind {
  const about = `${f.fieldName} ${f.description}`;
  if (f.enum) return 'enum';
  if (/e-?mail|correo|courriel/i.test(about)) return 'email';
  if (/name|nombre|\bnom\b|vorname|nachname|\bnome\b/i.test(about)) return 'name';
  return 'text';
}

/**
 * What one reply gives for one field: a typed value, or null when it gives none. A plain string
 * field (no name, no enum) takes the reply as said.
 *
 * @example
 * valueIn({ fieldName: 'age', type: 'number', description: 'Age' }, 'I am 42', 'en'); // 42
 */
export function valueIn(f: ExtractionField, reply: string, lang: string): ExtractedValue {
  switch (f.type) {
    case 'number':
      return numberOf(reply, lang);
    case 'date':
      return dateIn(reply, lang);
    case 'boolean':
      return booleanIn(reply);
    case 'string':
      switch (stringKind(f)) {
        case 'enum':
          return enumValueIn(reply, f.enum ?? []);
        case 'email':
          return emailIn(reply);
        case 'name':
          return nameIn(reply);
        case 'text':
          return reply.trim() === '' ? null : reply.trim();
      }
  }
}

const STOP = new Set(
  'the user their your what which does have this that with from about give gives name value'.split(
    ' ',
  ),
);

/** The words a field is about: its fieldName split at case and `_`, and its description. */
function fieldWords(f: ExtractionField): string[] {
  const name = f.fieldName.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
  return normalizeText(`${name} ${f.description}`)
    .split(' ')
    .filter((w) => w.length >= 3 && !STOP.has(w));
}

/** How many of the field's words the question that led to a reply mentions (word stems). */
function relevance(words: readonly string[], question: string): number {
  const q = normalizeText(question).split(' ');
  return words.filter((w) => q.some((x) => x.startsWith(w.slice(0, 5)))).length;
}

/**
 * A field's value from the user's turns: among the replies that give a value, the one whose
 * question mentions the field most, the latest when tied; a plain string field needs a question
 * that mentions it. `null` when no reply gives one.
 *
 * @example
 * extractField({ fieldName: 'email', type: 'string', description: 'Email' },
 *   [{ question: 'Your email?', reply: 'ana@example.com' }], 'en'); // 'ana@example.com'
 */
export function extractField(
  f: ExtractionField,
  turns: readonly Turn[],
  lang: string,
): ExtractedValue {
  const words = fieldWords(f);
  const plain = f.type === 'string' && stringKind(f) === 'text';
  let best: { score: number; value: ExtractedValue } | null = null;
  for (const t of turns) {
    const value = valueIn(f, t.reply, lang);
    if (value === null) continue;
    const score = relevance(words, t.question);
    if (plain && score === 0) continue;
    if (!best || score >= best.score) best = { score, value };
  }
  return best?.value ?? null;
}

/**
 * Every field of a schema from the user's turns, `null` for those no reply gives.
 *
 * @example
 * extractAll(schema, turns, 'en'); // { email: 'ana@example.com', age: 42, vip: null }
 */
export function extractAll(
  fields: readonly ExtractionField[],
  turns: readonly Turn[],
  lang: string,
): ExtractedData {
  return Object.fromEntries(fields.map((f) => [f.fieldName, extractField(f, turns, lang)]));
}

/**
 * A value an LLM gave for a field, made to the field's type by the same rules (a number in text,
 * a yes/no word, a date in any form read, an enum value); `null` when it does not read as one.
 *
 * @example
 * coerceValue({ fieldName: 'age', type: 'number', description: 'Age' }, '42 years', 'en'); // 42
 */
export function coerceValue(f: ExtractionField, raw: unknown, lang: string): ExtractedValue {
  if (raw === null || raw === undefined) return null;
  if (f.type === 'number' && typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (f.type === 'boolean' && typeof raw === 'boolean') return raw;
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') return null;
  const text = String(raw).trim();
  if (text === '') return null;
  if (f.type === 'string' && !f.enum) return text;
  return valueIn(f, text, lang);
}

/**
 * The local extractor: the rules above, the same answer every time, nothing asked of anyone.
 *
 * @example
 * await new LocalFieldExtractor().extract({ fields, turns, lang: 'en' });
 */
export class LocalFieldExtractor implements FieldExtractor {
  async extract(input: ExtractionInput): Promise<ExtractedData> {
    return extractAll(input.fields, input.turns, input.lang);
  }
}
