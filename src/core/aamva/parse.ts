/**
 * Reads the PDF417 barcode text of a North American driving licence or ID card, as the AAMVA
 * DL/ID card design standard lays it out (versions 1–10: 2000 to 2020), into the `extractedData`
 * keys of a document scan, with the licence's own: its class and the holder's address.
 *
 * The text: `@`, the separators (line feed, record separator, carriage return), `ANSI ` (or
 * `AAMVA` before version 1), the issuer identification number (6 digits), the standard's version
 * (2), from version 2 the jurisdiction's version (2), the number of subfiles (2) and their
 * designators; then each subfile (`DL` or `ID`, or a jurisdiction's `Z…`) as elements of a
 * three-letter id and a value, one a line. Names: `DAA` (version 1, `LAST,FIRST,MIDDLE`), `DCS`
 * and `DCT` (versions 2–3, given names together), `DCS`, `DAC`, `DAD` (from version 4). Dates:
 * `CCYYMMDD` in version 1 and in Canada, `MMDDCCYY` in the US from version 2: the two never
 * collide (no month 19 or 20), so each date is read in whichever form it has.
 */
import { isExpired, isoDate, type CalendarDate } from '../mrz/dates';
import type { ExtractedDocumentData } from '../mrz/parse';
import { countryOfJurisdiction, isAamvaIin } from './jurisdictions';

/** The keys a licence adds to a document's `extractedData`. */
export const LICENCE_KEYS = ['licenceClass', 'address'] as const;
export type LicenceData = ExtractedDocumentData & Record<(typeof LICENCE_KEYS)[number], string>;

export type AamvaProblem =
  | 'no_header'
  | 'unsupported_version'
  | 'no_subfile'
  | 'missing_document_number'
  | 'missing_name'
  | 'invalid_date_of_birth'
  | 'invalid_expiry_date'
  | 'invalid_issue_date'
  | 'unknown_jurisdiction';

export interface AamvaResult {
  /** The standard's version (1–10). */
  version: number;
  /** Issuer identification number: which jurisdiction issued it. */
  iin: string;
  subfile: 'DL' | 'ID';
  /** Every element of the subfile by its id (`DAQ` → the licence number…). */
  elements: Record<string, string>;
  data: LicenceData;
  /** `YYYY-MM-DD`, or `''` when the barcode has none. */
  issueDate: string;
  problems: AamvaProblem[];
  /** No problem. */
  valid: boolean;
  expired: boolean;
}

/** Line feed, carriage return and the record, group and file separators (0x1e, 0x1d, 0x1c). */
const SEPARATORS = new RegExp(`[\\n\\r${String.fromCharCode(0x1c, 0x1d, 0x1e)}]`);
const ELEMENT = /^[A-Z]{3}/;

function calendar(year: number, month: number, day: number): CalendarDate | null {
  if (month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return { year, month, day };
}

/**
 * A barcode date in either of the standard's forms (`MMDDCCYY` or `CCYYMMDD`), or null.
 *
 * @example
 * aamvaDate('08291977'); // { year: 1977, month: 8, day: 29 }
 * aamvaDate('19770829'); // { year: 1977, month: 8, day: 29 }
 */
export function aamvaDate(value: string | undefined): CalendarDate | null {
  const v = (value ?? '').trim();
  if (!/^\d{8}$/.test(v)) return null;
  const n = (a: number, b: number) => Number(v.slice(a, b));
  if (/^(19|20)/.test(v)) return calendar(n(0, 4), n(4, 6), n(6, 8));
  return calendar(n(4, 8), n(0, 2), n(2, 4));
}

const clean = (s: string | undefined) =>
  (s ?? '').toUpperCase().replace(/[,]+/g, ' ').replace(/\s+/g, ' ').trim();
const given = (s: string | undefined) => {
  const v = clean(s);
  return v === 'NONE' || v === 'UNAVL' ? '' : v;
};

/** `958180000` → `95818`, `958181234` → `95818-1234`; others (Canada's `K1A0B1`) trimmed. */
function postalCode(raw: string | undefined): string {
  const v = (raw ?? '').trim().toUpperCase();
  const us = /^(\d{5})-?(\d{4})?\d*$/.exec(v);
  if (us) return us[2] && us[2] !== '0000' ? `${us[1]}-${us[2]}` : us[1]!;
  return v;
}

function header(text: string): { version: number; iin: string; body: number } | null {
  const m = /(ANSI ?|AAMVA)(\d{6})(\d{2})/.exec(text.slice(0, 64));
  if (!m) return null;
  return { iin: m[2]!, version: Number(m[3]), body: m.index + m[0].length };
}

/**
 * The elements of the `DL` or `ID` subfile. The designators' offsets are not trusted (readers
 * and some jurisdictions count them differently): the subfile is found by its type followed by an
 * element id, and read line by line up to the next subfile.
 */
function subfileElements(
  text: string,
  from: number,
): { subfile: 'DL' | 'ID'; elements: Record<string, string> } | null {
  const start = /(DL|ID)(?=D[A-Z]{2})/g;
  start.lastIndex = from;
  let m: RegExpExecArray | null;
  // The designator list also says `DL0041…`: skip matches followed by digits (offset, length).
  while ((m = start.exec(text))) {
    const after = text.slice(m.index + 2, m.index + 5);
    if (ELEMENT.test(after)) break;
  }
  if (!m) return null;
  const elements: Record<string, string> = {};
  const lines = text.slice(m.index + 2).split(SEPARATORS);
  for (const line of lines) {
    // A jurisdiction's own subfile (`ZC…`) or the next one ends this one.
    if (/^Z[A-Z]/.test(line) && Object.keys(elements).length > 0) break;
    if (!ELEMENT.test(line)) continue;
    const id = line.slice(0, 3);
    if (!(id in elements)) elements[id] = line.slice(3).trimEnd();
  }
  return { subfile: m[1] as 'DL' | 'ID', elements };
}

function names(e: Record<string, string>): { lastName: string; firstName: string } {
  if (e['DCS'] !== undefined) {
    const first = e['DAC'] !== undefined ? [e['DAC'], e['DAD']].map(given) : [given(e['DCT'])];
    return { lastName: clean(e['DCS']), firstName: first.filter(Boolean).join(' ') };
  }
  if (e['DAB'] !== undefined) {
    return {
      lastName: clean(e['DAB']),
      firstName: [e['DAC'], e['DAD']].map(given).filter(Boolean).join(' '),
    };
  }
  // Version 1's full name: LAST,FIRST,MIDDLE (some write LAST,FIRST MIDDLE).
  const parts = (e['DAA'] ?? '').split(/[,$]/).map(given);
  return { lastName: parts[0] ?? '', firstName: parts.slice(1).filter(Boolean).join(' ') };
}

function sexOf(v: string | undefined): string {
  const s = (v ?? '').trim().toUpperCase();
  if (s === '1' || s === 'M') return 'M';
  if (s === '2' || s === 'F') return 'F';
  return 'X';
}

/**
 * Parses a licence's barcode text. Null when it is no AAMVA barcode at all (no header, no
 * subfile); otherwise the fields and what is wrong with them.
 *
 * @example
 * const r = parseAamva(text, Date.UTC(2026, 0, 1));
 * r?.data.documentNumber; // 'D1234562'
 * r?.data.address; // '2570 24TH STREET, ANYTOWN, CA 95818'
 */
export function parseAamva(text: string, today: number): AamvaResult | null {
  const h = header(text);
  if (!h) return null;
  const sub = subfileElements(text, h.body);
  if (!sub) return null;
  const e = sub.elements;
  const problems: AamvaProblem[] = [];
  if (h.version < 1 || h.version > 10) problems.push('unsupported_version');
  const number = (e['DAQ'] ?? '').trim().toUpperCase();
  if (!number) problems.push('missing_document_number');
  const { lastName, firstName } = names(e);
  if (!lastName) problems.push('missing_name');
  const birth = aamvaDate(e['DBB']);
  const expiry = aamvaDate(e['DBA']);
  const issue = e['DBD'] !== undefined ? aamvaDate(e['DBD']) : null;
  if (!birth) problems.push('invalid_date_of_birth');
  if (!expiry) problems.push('invalid_expiry_date');
  if (e['DBD'] !== undefined && !issue) problems.push('invalid_issue_date');
  const jurisdiction = (e['DAJ'] ?? '').trim().toUpperCase();
  const country = (e['DCG'] ?? '').trim().toUpperCase() || countryOfJurisdiction(jurisdiction);
  if (!country || !isAamvaIin(h.iin)) problems.push('unknown_jurisdiction');
  const street = [e['DAG'], e['DAH']].map(clean).filter(Boolean).join(', ');
  const place = [clean(e['DAI']), [jurisdiction, postalCode(e['DAK'])].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const data: LicenceData = {
    firstName,
    lastName,
    documentNumber: number,
    nationality: '',
    dateOfBirth: birth ? isoDate(birth) : '',
    expiryDate: expiry ? isoDate(expiry) : '',
    sex: sexOf(e['DBC']),
    documentType: sub.subfile === 'DL' ? 'dl' : 'id',
    issuingCountry: country ?? '',
    licenceClass: clean(e['DCA'] ?? e['DAR']),
    address: [street, place].filter(Boolean).join(', '),
  };
  return {
    version: h.version,
    iin: h.iin,
    subfile: sub.subfile,
    elements: e,
    data,
    issueDate: issue ? isoDate(issue) : '',
    problems,
    valid: problems.length === 0,
    expired: expiry ? isExpired(expiry, today) : false,
  };
}
