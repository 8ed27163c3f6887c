/**
 * The visual zone against the data: the printed fields, read by OCR as loose text (layouts differ
 * by state: labels, order and date forms vary), must contain the surname, the first given name,
 * the document number and the birth date that the zone or barcode says. Names allow one OCR slip
 * in six letters; numbers and dates are compared with look-alike characters folded together (`O`
 * and `0`, `I` and `1`…) and allow one slip in numbers of eight characters or more, none in
 * dates. The same text is searched for SPECIMEN and VOID.
 */
import { check, type DocumentCheck } from './types';

/** Upper-case letters and digits only, accents dropped. */
export function compact(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

const FOLD: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};

/** Look-alike characters as one (for numbers and dates, where OCR confuses them). */
export function fold(s: string): string {
  return [...s].map((c) => FOLD[c] ?? c).join('');
}

/**
 * The fewest edits (insertions, deletions, substitutions) that make `pattern` a substring of
 * `text` (Sellers' algorithm).
 *
 * @example
 * substringDistance('DUBOIS', 'SURNAMEDUB0ISGIVEN'); // 1
 */
export function substringDistance(pattern: string, text: string): number {
  const m = pattern.length;
  if (m === 0) return 0;
  let prev = new Array<number>(m + 1);
  for (let i = 0; i <= m; i++) prev[i] = i;
  let best = m;
  for (let j = 1; j <= text.length; j++) {
    const cur = new Array<number>(m + 1);
    cur[0] = 0;
    for (let i = 1; i <= m; i++) {
      const cost = pattern[i - 1] === text[j - 1] ? 0 : 1;
      cur[i] = Math.min(prev[i - 1]! + cost, prev[i]! + 1, cur[i - 1]! + 1);
    }
    best = Math.min(best, cur[m]!);
    prev = cur;
  }
  return best;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/**
 * The ways a date is printed, separators dropped: `DDMMYYYY`, `MMDDYYYY`, `YYYYMMDD`, `DDMMYY`
 * and `DDMONYYYY`.
 *
 * @example
 * dateForms('1974-08-12'); // ['12081974', '08121974', '19740812', '120874', '12AUG1974']
 */
export function dateForms(iso: string): string[] {
  const [y, m, d] = iso.split('-') as [string, string, string];
  return [
    `${d}${m}${y}`,
    `${m}${d}${y}`,
    `${y}${m}${d}`,
    `${d}${m}${y.slice(2)}`,
    `${d}${MONTHS[Number(m) - 1]}${y}`,
  ];
}

export interface Expected {
  lastName: string;
  firstName: string;
  documentNumber: string;
  dateOfBirth: string;
}

/** Fewer letters and digits than this read off the visual zone is not a read. */
const MIN_TEXT = 12;

/**
 * Which of the expected fields the printed text lacks (empty: it agrees), or null when the text
 * is too short to tell.
 *
 * @example
 * missingFields('SURNAME DUBOIS GIVEN NAMES JOAO PEDRO DATE OF BIRTH 07.03.1989 NO H7C539FC6',
 *   { lastName: 'DUBOIS', firstName: 'JOAO PEDRO', documentNumber: 'H7C539FC6', dateOfBirth: '1989-03-07' });
 * // []
 */
export function missingFields(text: string, want: Expected): (keyof Expected)[] | null {
  const all = compact(text);
  if (all.length < MIN_TEXT) return null;
  const folded = fold(all);
  const missing: (keyof Expected)[] = [];
  const name = (field: 'lastName' | 'firstName', value: string) => {
    const v = compact(value);
    if (v && substringDistance(v, all) > Math.floor(v.length / 6)) missing.push(field);
  };
  name('lastName', want.lastName);
  name('firstName', want.firstName.split(' ')[0] ?? '');
  const number = fold(compact(want.documentNumber));
  if (number && substringDistance(number, folded) > (number.length >= 8 ? 1 : 0))
    missing.push('documentNumber');
  if (want.dateOfBirth) {
    const found = dateForms(want.dateOfBirth).some((f) => substringDistance(fold(f), folded) === 0);
    if (!found) missing.push('dateOfBirth');
  }
  return missing;
}

/**
 * The visual zone's check from its OCR text (null: no side with printed fields was seen).
 *
 * @example
 * visualZoneCheck(text, expected); // { name: 'visualZone', result: 'failed', detail: 'lastName, dateOfBirth not printed' }
 */
export function visualZoneCheck(text: string | null, want: Expected): DocumentCheck {
  if (text === null) return check('visualZone', null, 'no side with printed fields');
  const missing = missingFields(text, want);
  if (missing === null) return check('visualZone', false, 'no printed fields read');
  if (missing.length > 0) return check('visualZone', false, `${missing.join(', ')} not printed`);
  return check('visualZone', true);
}

const tokensOf = (texts: readonly string[]) =>
  texts.flatMap((t) =>
    t
      .normalize('NFD')
      .toUpperCase()
      .split(/[^A-Z0-9]+/)
      .filter(Boolean),
  );

/** Five letters in a row of SPECIMEN: a stamp read in pieces (skewed, over other print). */
const SPECIMEN_PIECES = ['SPECI', 'PECIM', 'ECIME', 'CIMEN'];

/**
 * VOID as tesseract reads a stamp's letters (`VOIP`, `YOIP`, `VOLID`, `VOIB`, `VVOID`): each
 * letter or a look-alike of it, once or doubled. `D` read as `O`, `P` or `B` is taken for it here
 * only, in the stamp ink's text, which holds nothing of the document's own print.
 */
const VOID_READ = /[VY]+[O0Q]+[IL1]+[DOPB0]/;

/**
 * A token of the stamp ink's text that says VOID (through tesseract's look-alikes).
 *
 * @example
 * saysVoid('PAVOLIP'); // true
 * saysVoid('YPVORP'); // false
 */
export function saysVoid(token: string): boolean {
  return VOID_READ.test(token);
}

/** SPECIMEN in a token of large print: whole within one slip, or five of its letters in a row. */
const saysSpecimen = (token: string) =>
  SPECIMEN_PIECES.some((p) => token.includes(p)) ||
  (token.length >= 7 && substringDistance('SPECIMEN', token) <= 1);

export interface SpecimenEvidence {
  /** The printed fields' text and the zone's name: the words must be whole. */
  fields: readonly string[];
  /** Each side's large print (the grey page shrunk): a stamp may come out in pieces or one slip off. */
  bigPrint?: readonly string[];
  /** Each side's stamp ink alone (`stamp.ts`): the stamp's word with tesseract's look-alikes. */
  stampInk?: readonly string[];
  /** The holder's names: a card's large print shows them too. */
  names?: readonly string[];
}

/**
 * SPECIMEN or VOID printed on the document: in the printed fields' text or the zone's name (as a
 * whole word); in the large print (where a stamp may come out in pieces, or VOID with one letter
 * misread or doubled); or in the stamp ink's text (VOID through tesseract's look-alikes). A card's
 * large print is read at a size where its names show too, so the looser VOID rule there skips a
 * word within one slip of the holder's `names` (a holder called Voigt or David is not a VOID
 * stamp).
 *
 * @example
 * specimenCheck({ fields: ['SURNAME DUBOIS'], bigPrint: ['PASSPORT IMEN', 'PECIMEN'] }); // failed: 'SPECIMEN'
 * specimenCheck({ fields: [], bigPrint: ['DAVID'], names: ['DAVID'] }); // passed
 * specimenCheck({ fields: [], stampInk: ['Wp VOIP'] }); // failed: 'VOID'
 */
export function specimenCheck(evidence: SpecimenEvidence): DocumentCheck {
  const nameTokens = tokensOf(evidence.names ?? []).filter((t) => t.length >= 4);
  const isName = (token: string) =>
    nameTokens.some(
      (n) => Math.abs(n.length - token.length) <= 1 && substringDistance(n, token) <= 1,
    );
  for (const token of tokensOf(evidence.fields)) {
    if (token.length >= 7 && substringDistance('SPECIMEN', token) <= 1)
      return check('specimen', false, 'SPECIMEN');
    if (token === 'VOID' || token === 'V0ID') return check('specimen', false, 'VOID');
  }
  for (const token of tokensOf(evidence.bigPrint ?? [])) {
    if (saysSpecimen(token)) return check('specimen', false, 'SPECIMEN');
    const nearVoid =
      token.length >= 4 &&
      token.length <= 6 &&
      substringDistance('VOID', token) <= 1 &&
      !isName(token);
    if (nearVoid || token.includes('VOID')) return check('specimen', false, 'VOID');
  }
  for (const token of tokensOf(evidence.stampInk ?? [])) {
    if (saysSpecimen(token)) return check('specimen', false, 'SPECIMEN (stamp ink)');
    if (saysVoid(token)) return check('specimen', false, 'VOID (stamp ink)');
  }
  return check('specimen', true);
}

/**
 * Whether a stamp ink's text already shows the stamp's word (its next read can be skipped).
 *
 * @example
 * stampSays('Np voID'); // true
 */
export function stampSays(text: string): boolean {
  return specimenCheck({ fields: [], stampInk: [text] }).result === 'failed';
}
