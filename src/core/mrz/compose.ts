/**
 * Writes a machine-readable zone from its fields: the inverse of `parseMrz`, used by the test
 * renderer and by property tests (compose, then parse, gives the fields back).
 */
import { checkDigit } from './check-digit';
import type { MrzFormat } from './layout';

export interface MrzInput {
  format: MrzFormat;
  /** `P` for a passport, `I` (or `ID`, `AC`…) for an ID card; padded with `<`. */
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
  /** TD3 personal number, TD1 optional data of line 1. */
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

const digit = (s: string) => String(checkDigit(s) ?? 0);

/**
 * The zone's lines, check digits computed.
 *
 * @example
 * composeMrz({ format: 'TD3', documentCode: 'P', issuingCountry: 'UTO', lastName: 'Eriksson',
 *   firstName: 'Anna Maria', documentNumber: 'L898902C3', nationality: 'UTO',
 *   dateOfBirth: '740812', sex: 'F', expiryDate: '120415', optional1: 'ZE184226B' });
 * // ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
 * //  'L898902C36UTO7408122F1204159ZE184226B<<<<<10']
 */
export function composeMrz(m: MrzInput): string[] {
  const number = pad(m.documentNumber, 9);
  const code = pad(m.documentCode, 2);
  const state = pad(m.issuingCountry, 3);
  const nat = pad(m.nationality, 3);
  if (m.format === 'TD3') {
    const opt = pad(m.optional1 ?? '', 14);
    const optCheck = /^<*$/.test(opt) ? '<' : digit(opt);
    const l2a = `${number}${digit(number)}${nat}${m.dateOfBirth}${digit(m.dateOfBirth)}${m.sex}`;
    const l2b = `${m.expiryDate}${digit(m.expiryDate)}${opt}${optCheck}`;
    const composite = digit(
      `${number}${digit(number)}${m.dateOfBirth}${digit(m.dateOfBirth)}${l2b}`,
    );
    return [`${code}${state}${nameField(m.lastName, m.firstName, 39)}`, `${l2a}${l2b}${composite}`];
  }
  const opt1 = pad(m.optional1 ?? '', 15);
  const opt2 = pad(m.optional2 ?? '', 11);
  const l1 = `${code}${state}${number}${digit(number)}${opt1}`;
  const dob = `${m.dateOfBirth}${digit(m.dateOfBirth)}`;
  const exp = `${m.expiryDate}${digit(m.expiryDate)}`;
  const composite = digit(`${l1.slice(5)}${dob}${exp}${opt2}`);
  return [
    l1,
    `${dob}${m.sex}${exp}${nat}${opt2}${composite}`,
    nameField(m.lastName, m.firstName, 30),
  ];
}
