/**
 * The synthetic documents of the test set: varied names, dates and numbers from a seed, each with
 * what it must read as. Fictional people of real states (passports, ID cards, residence permits,
 * visas: ICAO zones) and of US states and Canadian provinces (driving licences: AAMVA barcodes),
 * genuine or forged in one of the ways the reader must refuse (`FORGERIES`).
 */
import { composeAamva, type AamvaInput } from '../../src/core/aamva';
import { composeMrz, type MrzFormat, type MrzInput } from '../../src/core/mrz';
import { seededRandom } from '../../src/core/random';

/**
 * What is printed: `passport` (TD3 data page), `id` (TD1 card, zone on the back), `td2` (an ID
 * card of the ID-2 size, zone on the front), `permit` (a TD1 residence permit), `visa-a` (an MRV-A
 * visa on a passport page), `visa-b` (an MRV-B visa sticker), `dl` (a North American driving
 * licence, AAMVA barcode on the back).
 */
export type Kind = 'passport' | 'id' | 'td2' | 'permit' | 'visa-a' | 'visa-b' | 'dl';
export const KINDS: readonly Kind[] = ['passport', 'id', 'td2', 'permit', 'visa-a', 'visa-b', 'dl'];

/**
 * The ways a document is forged: a state that does not exist (`UTO`, the ICAO specimen state,
 * outside test mode, or a code no state has); printed fields that disagree with the zone; dates
 * that cannot be (a validity of decades, a licence issued before its holder was 14); no face where
 * the portrait goes; SPECIMEN or VOID printed over it; a greyscale photocopy; a photo of a screen;
 * an ID card whose front is another person's.
 */
export const FORGERIES = [
  'invented_state',
  'viz_mismatch',
  'impossible_dates',
  'no_face',
  'specimen',
  'void',
  'photocopy',
  'screen',
  'front_mismatch',
] as const;
export type Forgery = (typeof FORGERIES)[number];
export type Variant = 'valid' | 'broken_check' | 'expired' | Forgery;
/** How hard the photograph is: `clean` is a flat scan, `heavy` is outside the accuracy target. */
export type Level = 'clean' | 'mild' | 'moderate' | 'heavy';
/**
 * How the zone is printed: `ocrb` with Debian's OCR-B as the templates were made; `second` with
 * OCR-B's other cut (`OCRBS.otf`, "Sharp"), a heavier stroke, at 150 dpi, ink spread and a
 * halftoned background (`render.ts`).
 */
export type Print = 'ocrb' | 'second';

/** What the visual zone (the printed fields) says; ISO dates. */
export interface Printed {
  lastName: string;
  firstName: string;
  documentNumber: string;
  nationality: string;
  issuingCountry: string;
  dateOfBirth: string;
  expiryDate: string;
  issueDate: string;
  sex: 'M' | 'F' | 'X';
}

export interface Specimen {
  id: string;
  kind: Kind;
  variant: Variant;
  level: Level;
  print: Print;
  seed: number;
  /** The zone (MRZ kinds). */
  mrz?: MrzInput;
  lines: string[];
  /** The barcode text (licences). */
  aamva?: AamvaInput;
  barcode?: string;
  /** The front's (or data page's) printed fields. */
  printed: Printed;
  /** Licences: the licence's class and the address printed on the front. */
  licence?: { licenceClass: string; address: string[] };
}

/** The seeded generator of every random choice here: the same documents on every machine. */
export const rng = seededRandom;

const LAST = [
  'ERIKSSON',
  'NOVAK',
  'OKAFOR',
  'DUBOIS',
  'SCHMIDT',
  'GARCIA LOPEZ',
  'KOWALSKI',
  'OBRIEN',
  'NAKAMURA',
  'SILVA',
  'MULLER',
  'ROSSI',
  'JOHANSEN',
  'HERNANDEZ',
  'BLACKWOOD',
  'CZECH',
  'VAN DER BERG',
  'LINDQVIST',
  'MACKENZIE',
  'ZIELINSKI',
  'QUINN',
  'ABBOTT',
  'KLEIN',
  'OLUWASEUN',
];
const FIRST = [
  'ANNA MARIA',
  'JAN',
  'CHIDI',
  'CLAIRE',
  'LUKAS',
  'SOFIA',
  'PIOTR',
  'SEAN',
  'YUKI',
  'JOAO PEDRO',
  'KLAUS',
  'GIULIA',
  'INGRID',
  'CARLOS',
  'ELEANOR',
  'KAREL',
  'PIETER',
  'ELSA',
  'CALUM',
  'OLGA',
  'LIAM',
  'GRACE',
  'LOTTE',
  'ADEBAYO',
];
/** Real states only: `UTO`, the ICAO specimen state, is a forgery outside test mode. */
const STATES = ['GBR', 'FRA', 'NLD', 'SWE', 'POL', 'NGA', 'JPN', 'BRA', 'ITA', 'D', 'CAN', 'ESP'];
/** Codes no state has (and the specimen state, refused outside test mode). */
const INVENTED = ['UTO', 'ZQX', 'QQB', 'KVX'];
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
/** US and Canadian jurisdictions: code, IIN, a city, a postal code as the barcode writes it. */
const JURISDICTIONS = [
  { code: 'CA', iin: '636014', country: 'USA', city: 'SACRAMENTO', postal: '958180000' },
  { code: 'NY', iin: '636001', country: 'USA', city: 'ALBANY', postal: '122070000' },
  { code: 'TX', iin: '636015', country: 'USA', city: 'AUSTIN', postal: '787011234' },
  { code: 'FL', iin: '636010', country: 'USA', city: 'TAMPA', postal: '336020000' },
  { code: 'WA', iin: '636045', country: 'USA', city: 'SEATTLE', postal: '981040000' },
  { code: 'IL', iin: '636035', country: 'USA', city: 'CHICAGO', postal: '606010000' },
  { code: 'ON', iin: '636012', country: 'CAN', city: 'OTTAWA', postal: 'K1A0B1' },
  { code: 'BC', iin: '636028', country: 'CAN', city: 'VICTORIA', postal: 'V8W1P6' },
] as const;
const STREETS = ['MAIN STREET', 'OAK AVENUE', '24TH STREET', 'MAPLE DRIVE', 'PINE ROAD'];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const two = (n: number) => String(n).padStart(2, '0');

function isoDay(r: () => number, fromYear: number, toYear: number): string {
  const y = fromYear + Math.floor(r() * (toYear - fromYear + 1));
  return `${y}-${two(1 + Math.floor(r() * 12))}-${two(1 + Math.floor(r() * 28))}`;
}
const yymmdd = (iso: string) => iso.slice(2).replace(/-/g, '');
const addYears = (iso: string, n: number) => `${Number(iso.slice(0, 4)) + n}${iso.slice(4)}`;

function docNumber(r: () => number): string {
  // Letters and digits mixed, as many states issue them: the reader's hardest field.
  let s = '';
  for (let i = 0; i < 9; i++) s += r() < 0.3 ? pick(r, [...LETTERS]) : String(Math.floor(r() * 10));
  return s;
}

/** A check digit of the zone changed to a wrong one (document number, birth or expiry date). */
function breakCheck(lines: string[], format: MrzFormat, r: () => number): string[] {
  const places: Record<MrzFormat, [number, number][]> = {
    TD3: [
      [1, 9],
      [1, 19],
      [1, 27],
    ],
    'MRV-A': [
      [1, 9],
      [1, 19],
      [1, 27],
    ],
    TD2: [
      [1, 9],
      [1, 19],
      [1, 27],
    ],
    'MRV-B': [
      [1, 9],
      [1, 19],
      [1, 27],
    ],
    TD1: [
      [0, 14],
      [1, 6],
      [1, 14],
    ],
  };
  const [li, ci] = pick(r, places[format]);
  const line = lines[li]!;
  const wrong = String((Number(line[ci]) + 1 + Math.floor(r() * 8)) % 10);
  const out = [...lines];
  out[li] = line.slice(0, ci) + wrong + line.slice(ci + 1);
  return out;
}

const FORMAT: Record<Exclude<Kind, 'dl'>, MrzFormat> = {
  passport: 'TD3',
  id: 'TD1',
  td2: 'TD2',
  permit: 'TD1',
  'visa-a': 'MRV-A',
  'visa-b': 'MRV-B',
};
const CODES: Record<Exclude<Kind, 'dl'>, readonly string[]> = {
  passport: ['P'],
  id: ['I', 'ID'],
  td2: ['I', 'ID'],
  permit: ['IR', 'AR'],
  'visa-a': ['V', 'VC'],
  'visa-b': ['V', 'VD'],
};

/** The person of a seed: names, dates, sex (the same draws for every kind). */
function person(r: () => number, variant: Variant) {
  const lastName = pick(r, LAST);
  const firstName = pick(r, FIRST);
  const dateOfBirth = isoDay(r, 1950, 2006);
  const sex = pick(r, ['M', 'F', 'F', 'M', 'X'] as const);
  const expiryDate =
    variant === 'expired'
      ? isoDay(r, 2012, 2024)
      : variant === 'impossible_dates'
        ? isoDay(r, 2058, 2070)
        : isoDay(r, 2028, 2035);
  return { lastName, firstName, dateOfBirth, sex, expiryDate };
}

function mrzSpecimen(
  seed: number,
  kind: Exclude<Kind, 'dl'>,
  variant: Variant,
  level: Level,
  print: Print,
): Specimen {
  const r = rng(seed * 7919 + KINDS.indexOf(kind) * 13);
  const state = variant === 'invented_state' ? pick(r, INVENTED) : pick(r, STATES);
  const p = person(r, variant);
  const number = docNumber(r);
  const nationality = variant === 'invented_state' || r() < 0.8 ? state : pick(r, STATES);
  const issueDate = addYears(p.expiryDate, kind === 'passport' ? -10 : -5);
  const mrz: MrzInput = {
    format: FORMAT[kind],
    documentCode: pick(r, CODES[kind]),
    issuingCountry: state,
    lastName: p.lastName,
    firstName: p.firstName,
    documentNumber: number,
    nationality,
    dateOfBirth: yymmdd(p.dateOfBirth),
    sex: p.sex === 'X' ? '<' : p.sex,
    expiryDate: yymmdd(p.expiryDate),
    ...(kind === 'passport' && r() < 0.5 ? { optional1: docNumber(r).slice(0, 7) } : {}),
  };
  let lines = composeMrz(mrz);
  if (variant === 'broken_check') lines = breakCheck(lines, mrz.format, r);
  let printed: Printed = {
    lastName: p.lastName,
    firstName: p.firstName,
    documentNumber: number,
    nationality: nationality.replace(/<+$/, ''),
    issuingCountry: state.replace(/<+$/, ''),
    dateOfBirth: p.dateOfBirth,
    expiryDate: p.expiryDate,
    issueDate,
    sex: p.sex,
  };
  if (variant === 'viz_mismatch' || variant === 'front_mismatch') {
    // Another person's name, birth date and number over a genuine zone.
    const o = rng(seed * 104729 + 3);
    printed = {
      ...printed,
      lastName: LAST[(LAST.indexOf(p.lastName) + 1 + Math.floor(o() * 10)) % LAST.length]!,
      dateOfBirth: addYears(p.dateOfBirth, 1 + Math.floor(o() * 5)),
      documentNumber: docNumber(o),
    };
  }
  return {
    id: `${kind}-${variant}-${level}-${print}-${seed}`,
    kind,
    variant,
    level,
    print,
    seed,
    mrz,
    lines,
    printed,
  };
}

function dlSpecimen(seed: number, variant: Variant, level: Level, print: Print): Specimen {
  const r = rng(seed * 7919 + KINDS.indexOf('dl') * 13);
  const j = pick(r, JURISDICTIONS);
  const p = person(r, variant === 'impossible_dates' ? 'valid' : variant);
  const middle = r() < 0.6 ? pick(r, FIRST).split(' ')[0]! : '';
  const first = p.firstName.split(' ')[0]!;
  // Licences are issued for 4–8 years, at the latest in 2025 (the set is judged on 1 January
  // 2026); an impossible one was issued before its holder was 14.
  const issueDate =
    variant === 'impossible_dates'
      ? addYears(p.dateOfBirth, 6 + Math.floor(r() * 5))
      : addYears(
          p.expiryDate,
          -Math.max(4 + Math.floor(r() * 5), Number(p.expiryDate.slice(0, 4)) - 2025),
        );
  const expiryDate = p.expiryDate;
  const number = `${pick(r, [...LETTERS])}${String(Math.floor(r() * 1e7)).padStart(7, '0')}`;
  const street = `${100 + Math.floor(r() * 9800)} ${pick(r, STREETS)}`;
  const aamva: AamvaInput = {
    version: 1 + (seed % 10),
    iin: variant === 'invented_state' ? pick(r, ['999123', '612345', '636099']) : j.iin,
    subfile: 'DL',
    country: j.country,
    lastName: p.lastName,
    firstName: first,
    middleName: middle,
    number,
    dateOfBirth: p.dateOfBirth,
    issueDate,
    expiryDate,
    sex: p.sex,
    licenceClass: j.country === 'CAN' ? pick(r, ['G', 'G2', 'M']) : pick(r, ['C', 'D', 'M', 'A']),
    street,
    city: j.city,
    jurisdiction: variant === 'invented_state' ? 'ZZ' : j.code,
    postalCode: j.postal,
  };
  let printed: Printed = {
    lastName: p.lastName,
    firstName: [first, middle].filter(Boolean).join(' '),
    documentNumber: number,
    nationality: '',
    issuingCountry: j.country,
    dateOfBirth: p.dateOfBirth,
    expiryDate,
    issueDate,
    sex: p.sex,
  };
  if (variant === 'viz_mismatch' || variant === 'front_mismatch') {
    const o = rng(seed * 104729 + 5);
    printed = {
      ...printed,
      lastName: LAST[(LAST.indexOf(p.lastName) + 1 + Math.floor(o() * 10)) % LAST.length]!,
      dateOfBirth: addYears(p.dateOfBirth, 2),
      documentNumber: `${pick(o, [...LETTERS])}${String(Math.floor(o() * 1e7)).padStart(7, '0')}`,
    };
  }
  const postal = j.country === 'USA' ? j.postal.slice(0, 5) : j.postal;
  return {
    id: `dl-${variant}-${level}-${print}-${seed}`,
    kind: 'dl',
    variant,
    level,
    print,
    seed,
    lines: [],
    aamva,
    barcode: composeAamva(aamva),
    printed,
    licence: {
      licenceClass: aamva.licenceClass,
      address: [street, `${j.city}, ${aamva.jurisdiction} ${postal}`],
    },
  };
}

/**
 * One specimen from a seed.
 *
 * @example
 * specimen(7, 'passport', 'valid', 'mild').lines.length; // 2
 * specimen(7, 'dl', 'valid', 'mild').barcode?.startsWith('@'); // true
 */
export function specimen(
  seed: number,
  kind: Kind,
  variant: Variant,
  level: Level,
  print: Print = 'ocrb',
): Specimen {
  return kind === 'dl'
    ? dlSpecimen(seed, variant, level, print)
    : mrzSpecimen(seed, kind, variant, level, print);
}

/** Whether a kind is photographed on two sides (front for the face, back for the data). */
export const TWO_SIDED: ReadonlySet<Kind> = new Set(['id', 'permit', 'dl']);

/** The kinds each forgery is made on (a front that is another person's needs a two-sided card). */
const FORGED_KINDS: Record<Forgery, readonly Kind[]> = {
  invented_state: ['passport', 'id', 'dl'],
  viz_mismatch: ['passport', 'td2', 'visa-a'],
  impossible_dates: ['passport', 'dl'],
  no_face: ['passport', 'td2', 'dl'],
  specimen: ['passport', 'id'],
  void: ['passport', 'dl'],
  photocopy: ['passport', 'id', 'dl'],
  screen: ['passport', 'id', 'dl'],
  front_mismatch: ['id', 'permit', 'dl'],
};

export interface SetSize {
  /** Genuine documents per kind and level for passports, ID cards and licences. */
  perLevel: number;
  /** Genuine documents per kind and level for TD2 cards, residence permits and visas. */
  perLevelOther: number;
  /** Broken and expired ones per kind (passport, id) and level (clean, moderate). */
  extra: number;
  /** Second-rendering passports and ID cards per level. */
  second: number;
  /** Forgeries per type and level (clean, moderate), spread over its kinds. */
  forged: number;
}

export const DEFAULT_SET: SetSize = {
  perLevel: 12,
  perLevelOther: 8,
  extra: 4,
  second: 8,
  forged: 6,
};

/**
 * The whole test set (docs/documents.md, "Test material").
 *
 * @example
 * testSet({ ...DEFAULT_SET, perLevel: 2 }).length;
 */
export function testSet(size: SetSize = DEFAULT_SET): Specimen[] {
  const out: Specimen[] = [];
  let seed = 1;
  const levels = ['clean', 'mild', 'moderate', 'heavy'] as const;
  for (const kind of KINDS) {
    const n = ['passport', 'id', 'dl'].includes(kind) ? size.perLevel : size.perLevelOther;
    for (const level of levels)
      for (let i = 0; i < n; i++) out.push(specimen(seed++, kind, 'valid', level));
  }
  for (const kind of ['passport', 'id'] as const) {
    for (const variant of ['broken_check', 'expired'] as const) {
      for (const level of ['clean', 'moderate'] as const) {
        for (let i = 0; i < size.extra; i++) out.push(specimen(seed++, kind, variant, level));
      }
    }
  }
  for (const kind of ['passport', 'id'] as const) {
    for (const level of levels) {
      for (let i = 0; i < size.second; i++)
        out.push(specimen(seed++, kind, 'valid', level, 'second'));
    }
  }
  for (const forgery of FORGERIES) {
    const kinds = FORGED_KINDS[forgery];
    for (const level of ['clean', 'moderate'] as const) {
      for (let i = 0; i < size.forged; i++) {
        out.push(specimen(seed++, kinds[i % kinds.length]!, forgery, level));
      }
    }
  }
  return out;
}
