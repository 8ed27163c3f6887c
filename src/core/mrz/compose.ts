/**
 * Writes a machine-readable zone from its fields: the inverse of `parseMrz`, used by the test
 * renderer and by property tests (compose, then parse, gives the fields back).
 */
import { checkDigit } from './check-digit';
import { LAYOUTS, type FieldSpan, type MrzFormat } from './layout';

export interface MrzInput {
  format: MrzFormat;
  /** `P` for a passport, `I` (or `ID`, `AC`…) for an ID card, `V` for a visa; padded with `<`. */
  documentCode: string;
  issuingCountry: string;
  lastName: string;
  firstName: string;
  documentNumber: string;
  nationality: string;
  /** YYMMDD */
  dateOfBirth: string;
  sex: 'M' | 'F' | '<';
  /** YYMMDD */
  expiryDate: string;
  /** TD3 personal number, TD1 optional data of line 1, TD2 and visa optional data. */
  optional1?: string;
  /** TD1 optional data of line 2. */
  optional2?: string;
}

const pad = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);

/** Upper-case letters, spaces and hyphens become `<`, other characters are dropped. */
const mrzText = (s: string) =>
  s
    .toUpperCase()
    .replace(/[\s'-]+/g, '<')
    .replace(/[^A-Z<]/g, '');

/**
 * The name field: `LAST<<FIRST<NAMES`, cut to the field's width.
 *
 * @example
 * nameField('Eriksson', 'Anna Maria', 39); // 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<<'
 */
export function nameField(lastName: string, firstName: string, width: number): string {
  const first = mrzText(firstName);
  return pad(first ? `${mrzText(lastName)}<<${first}` : mrzText(lastName), width);
}

/**
 * The zone's lines, check digits computed (an all-filler optional field of a TD3 takes `<` as
 * its check digit, as ICAO 9303 allows).
 *
 * @example
 * composeMrz({ format: 'TD3', documentCode: 'P', issuingCountry: 'UTO', lastName: 'Eriksson',
 *   firstName: 'Anna Maria', documentNumber: 'L898902C3', nationality: 'UTO',
 *   dateOfBirth: '740812', sex: 'F', expiryDate: '120415', optional1: 'ZE184226B' });
 * // ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
 * //  'L898902C36UTO7408122F1204159ZE184226B<<<<<10']
 */
export function composeMrz(m: MrzInput): string[] {
  const layout = LAYOUTS.find((l) => l.format === m.format)!;
  const chars = new Array<string>(layout.lines * layout.lineLength).fill('<');
  const put = (f: FieldSpan | undefined, value: string) => {
    if (!f) return;
    const v = pad(value, f.length);
    for (let i = 0; i < f.length; i++) chars[f.start + i] = v[i]!;
  };
  const f = layout.fields;
  put(f.documentCode, m.documentCode);
  put(f.issuingCountry, m.issuingCountry);
  put(f.name, nameField(m.lastName, m.firstName, f.name.length));
  put(f.documentNumber, m.documentNumber);
  put(f.nationality, m.nationality);
  put(f.dateOfBirth, m.dateOfBirth);
  put(f.sex, m.sex);
  put(f.expiryDate, m.expiryDate);
  put(f.optional1, m.optional1 ?? '');
  put(f.optional2, m.optional2 ?? '');
  // The composite comes last: it covers the other check digits.
  const ordered = [...layout.checks].sort(
    (a, b) => Number(a.name === 'composite') - Number(b.name === 'composite'),
  );
  for (const c of ordered) {
    const body = c.over.map((o) => chars.slice(o.start, o.start + o.length).join('')).join('');
    const emptyOptional = c.name === 'optionalData' && /^<*$/.test(body);
    chars[c.at] = emptyOptional ? '<' : String(checkDigit(body) ?? 0);
  }
  const out: string[] = [];
  for (let l = 0; l < layout.lines; l++) {
    out.push(chars.slice(l * layout.lineLength, (l + 1) * layout.lineLength).join(''));
  }
  return out;
}
