/**
 * Reads a machine-readable zone into checked fields and the `extractedData` of a session.
 * Nothing here guesses: a zone is `valid` only when every check digit holds, both dates exist,
 * the codes are known states and the name field has the shape ICAO 9303 gives it.
 */
import { checkDigitHolds } from './check-digit';
import { isKnownCountry } from './countries';
import { birthDate, expiryDate, isExpired, isoDate } from './dates';
import {
  layoutFor,
  type CheckSpec,
  type FieldSpan,
  type MrzFormat,
  type MrzLayout,
} from './layout';

/** The keys of `extractedData` a document scan writes, always all of them. */
export const EXTRACTED_KEYS = [
  'firstName',
  'lastName',
  'documentNumber',
  'nationality',
  'dateOfBirth',
  'expiryDate',
  'sex',
  'documentType',
  'issuingCountry',
] as const;
export type ExtractedKey = (typeof EXTRACTED_KEYS)[number];
export type ExtractedDocumentData = Record<ExtractedKey, string>;

export interface MrzCheck {
  name: CheckSpec['name'];
  ok: boolean;
}

/** What is wrong with a zone beyond its check digits. */
export type MrzProblem =
  | 'unknown_issuing_country'
  | 'unknown_nationality'
  | 'invalid_date_of_birth'
  | 'invalid_expiry_date'
  | 'invalid_sex'
  | 'invalid_name'
  | 'invalid_document_code'
  | 'invalid_characters';

export interface MrzResult {
  format: MrzFormat;
  /** The zone's lines as read. */
  lines: string[];
  checks: MrzCheck[];
  /** Every check digit holds. */
  checksOk: boolean;
  problems: MrzProblem[];
  /** `checksOk` and no problem. */
  valid: boolean;
  /** True when the expiry date has passed on `today` (only meaningful when `valid`). */
  expired: boolean;
  data: ExtractedDocumentData;
}

const NAME_SHAPE = /^[A-Z]+(<[A-Z]+)*(<<[A-Z]+(<[A-Z]+)*)?<*$/;

const take = (s: string, f: FieldSpan) => s.slice(f.start, f.start + f.length);
const trimFill = (s: string) => s.replace(/<+$/, '').replace(/^<+/, '');

/**
 * Splits a name field into last and first names (`LAST<<FIRST<SECOND` → `LAST`, `FIRST SECOND`).
 *
 * @example
 * splitName('ERIKSSON<<ANNA<MARIA<<<<<'); // { lastName: 'ERIKSSON', firstName: 'ANNA MARIA' }
 */
export function splitName(field: string): { lastName: string; firstName: string } {
  const body = field.replace(/<+$/, '');
  const cut = body.indexOf('<<');
  const last = cut < 0 ? body : body.slice(0, cut);
  const first = cut < 0 ? '' : body.slice(cut + 2);
  return { lastName: last.replace(/</g, ' '), firstName: first.replace(/</g, ' ') };
}

function documentTypeOf(code: string): string {
  if (code.startsWith('P')) return 'passport';
  if (code.startsWith('V')) return 'visa';
  if (/^[IAC]/.test(code)) return 'id';
  return 'other';
}

/**
 * Parses and checks a zone given as its lines (2 × 44 for TD3 and MRV-A, 3 × 30 for TD1, 2 × 36
 * for TD2 and MRV-B; a `V` document code makes a visa). Returns null when the lines have no MRZ
 * shape at all.
 *
 * @example
 * const r = parseMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
 *   'L898902C36UTO7408122F1204159ZE184226B<<<<<10'], Date.UTC(2026, 0, 1));
 * r?.valid; // true
 * r?.expired; // true
 * r?.data.dateOfBirth; // '1974-08-12'
 */
export function parseMrz(lines: readonly string[], today: number): MrzResult | null {
  const layout: MrzLayout | null = layoutFor(lines.length, lines[0]?.length ?? 0, lines[0]);
  if (!layout || lines.some((l) => l.length !== layout.lineLength)) return null;
  const all = lines.join('');
  const problems: MrzProblem[] = [];
  if (!/^[A-Z0-9<]*$/.test(all)) problems.push('invalid_characters');

  const checks: MrzCheck[] = layout.checks.map((c) => ({
    name: c.name,
    ok: checkDigitHolds(
      c.over.map((o) => all.slice(o.start, o.start + o.length)).join(''),
      all[c.at]!,
    ),
  }));
  const checksOk = checks.every((c) => c.ok);

  const f = layout.fields;
  const code = take(all, f.documentCode);
  const state = take(all, f.issuingCountry);
  const nat = take(all, f.nationality);
  const sex = take(all, f.sex);
  const name = take(all, f.name);
  const dob = birthDate(take(all, f.dateOfBirth), today);
  const exp = expiryDate(take(all, f.expiryDate), today);
  if (!layout.documentCode.test(code)) problems.push('invalid_document_code');
  if (!isKnownCountry(state)) problems.push('unknown_issuing_country');
  if (!isKnownCountry(nat)) problems.push('unknown_nationality');
  if (!dob) problems.push('invalid_date_of_birth');
  if (!exp) problems.push('invalid_expiry_date');
  if (!/^[MFX<]$/.test(sex)) problems.push('invalid_sex');
  if (!NAME_SHAPE.test(name)) problems.push('invalid_name');

  const { lastName, firstName } = splitName(name);
  const data: ExtractedDocumentData = {
    firstName,
    lastName,
    documentNumber: trimFill(take(all, f.documentNumber)),
    nationality: trimFill(nat),
    dateOfBirth: dob ? isoDate(dob) : '',
    expiryDate: exp ? isoDate(exp) : '',
    sex: sex === 'M' || sex === 'F' ? sex : 'X',
    documentType: documentTypeOf(code),
    issuingCountry: trimFill(state),
  };
  return {
    format: layout.format,
    lines: [...lines],
    checks,
    checksOk,
    problems,
    valid: checksOk && problems.length === 0,
    expired: exp ? isExpired(exp, today) : false,
    data,
  };
}
