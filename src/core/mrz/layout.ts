/**
 * Where each field sits in the machine-readable zones this service reads (ICAO 9303 parts 4–7):
 * TD3 (passports, 2 lines of 44), TD1 (ID cards, 3 lines of 30), TD2 (ID cards, 2 lines of 36)
 * and the visas MRV-A (2 × 44) and MRV-B (2 × 36). Positions count across the lines joined into
 * one string. Two zones of the same size (TD3 and MRV-A, TD2 and MRV-B) are told apart by their
 * document code: `V` is a visa.
 */

export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B';

/**
 * What a position may hold: `digit` (dates, check digits), `alpha` (letters and fillers: codes,
 * names), `alnum` (document and optional numbers), `check` (a digit, or `<` after an empty field),
 * `sex` (`M`, `F` or `<`).
 */
export type CharClass = 'digit' | 'alpha' | 'alnum' | 'check' | 'sex';

export interface FieldSpan {
  start: number;
  length: number;
  kind: CharClass;
}

export interface CheckSpec {
  /** The name the node report gives this check. */
  name: 'documentNumber' | 'dateOfBirth' | 'expiryDate' | 'optionalData' | 'composite';
  /** Spans whose characters, joined, the digit checks. */
  over: { start: number; length: number }[];
  /** Position of the check digit. */
  at: number;
}

export interface MrzLayout {
  format: MrzFormat;
  lines: number;
  lineLength: number;
  /** The document code the format takes (first two characters). */
  documentCode: RegExp;
  fields: {
    documentCode: FieldSpan;
    issuingCountry: FieldSpan;
    documentNumber: FieldSpan;
    nationality: FieldSpan;
    dateOfBirth: FieldSpan;
    sex: FieldSpan;
    expiryDate: FieldSpan;
    name: FieldSpan;
    optional1: FieldSpan;
    optional2?: FieldSpan;
  };
  checks: CheckSpec[];
}

const span = (start: number, length: number, kind: CharClass): FieldSpan => ({
  start,
  length,
  kind,
});

/** Passports: line 1 code, state, name; line 2 numbers, dates, checks. */
export const TD3: MrzLayout = {
  format: 'TD3',
  lines: 2,
  lineLength: 44,
  documentCode: /^P[A-Z<]$/,
  fields: {
    documentCode: span(0, 2, 'alpha'),
    issuingCountry: span(2, 3, 'alpha'),
    name: span(5, 39, 'alpha'),
    documentNumber: span(44, 9, 'alnum'),
    nationality: span(54, 3, 'alpha'),
    dateOfBirth: span(57, 6, 'digit'),
    sex: span(64, 1, 'sex'),
    expiryDate: span(65, 6, 'digit'),
    optional1: span(72, 14, 'alnum'),
  },
  checks: [
    { name: 'documentNumber', over: [{ start: 44, length: 9 }], at: 53 },
    { name: 'dateOfBirth', over: [{ start: 57, length: 6 }], at: 63 },
    { name: 'expiryDate', over: [{ start: 65, length: 6 }], at: 71 },
    { name: 'optionalData', over: [{ start: 72, length: 14 }], at: 86 },
    {
      name: 'composite',
      over: [
        { start: 44, length: 10 },
        { start: 57, length: 7 },
        { start: 65, length: 22 },
      ],
      at: 87,
    },
  ],
};

/** ID cards: line 1 code, state, number; line 2 dates, sex, nationality; line 3 name. */
export const TD1: MrzLayout = {
  format: 'TD1',
  lines: 3,
  lineLength: 30,
  documentCode: /^[IAC][A-Z<]$/,
  fields: {
    documentCode: span(0, 2, 'alpha'),
    issuingCountry: span(2, 3, 'alpha'),
    documentNumber: span(5, 9, 'alnum'),
    optional1: span(15, 15, 'alnum'),
    dateOfBirth: span(30, 6, 'digit'),
    sex: span(37, 1, 'sex'),
    expiryDate: span(38, 6, 'digit'),
    nationality: span(45, 3, 'alpha'),
    optional2: span(48, 11, 'alnum'),
    name: span(60, 30, 'alpha'),
  },
  checks: [
    { name: 'documentNumber', over: [{ start: 5, length: 9 }], at: 14 },
    { name: 'dateOfBirth', over: [{ start: 30, length: 6 }], at: 36 },
    { name: 'expiryDate', over: [{ start: 38, length: 6 }], at: 44 },
    {
      name: 'composite',
      over: [
        { start: 5, length: 25 },
        { start: 30, length: 7 },
        { start: 38, length: 7 },
        { start: 48, length: 11 },
      ],
      at: 59,
    },
  ],
};

/** ID cards of the ID-2 size: like a passport's line 1, line 2 with a 7-character optional field. */
export const TD2: MrzLayout = {
  format: 'TD2',
  lines: 2,
  lineLength: 36,
  documentCode: /^[IAC][A-Z<]$/,
  fields: {
    documentCode: span(0, 2, 'alpha'),
    issuingCountry: span(2, 3, 'alpha'),
    name: span(5, 31, 'alpha'),
    documentNumber: span(36, 9, 'alnum'),
    nationality: span(46, 3, 'alpha'),
    dateOfBirth: span(49, 6, 'digit'),
    sex: span(56, 1, 'sex'),
    expiryDate: span(57, 6, 'digit'),
    optional1: span(64, 7, 'alnum'),
  },
  checks: [
    { name: 'documentNumber', over: [{ start: 36, length: 9 }], at: 45 },
    { name: 'dateOfBirth', over: [{ start: 49, length: 6 }], at: 55 },
    { name: 'expiryDate', over: [{ start: 57, length: 6 }], at: 63 },
    {
      name: 'composite',
      over: [
        { start: 36, length: 10 },
        { start: 49, length: 7 },
        { start: 57, length: 14 },
      ],
      at: 71,
    },
  ],
};

/** Visas of the passport page's size (ICAO 9303 part 7): no composite, 16 characters of optional data. */
export const MRV_A: MrzLayout = {
  format: 'MRV-A',
  lines: 2,
  lineLength: 44,
  documentCode: /^V[A-Z<]$/,
  fields: {
    documentCode: span(0, 2, 'alpha'),
    issuingCountry: span(2, 3, 'alpha'),
    name: span(5, 39, 'alpha'),
    documentNumber: span(44, 9, 'alnum'),
    nationality: span(54, 3, 'alpha'),
    dateOfBirth: span(57, 6, 'digit'),
    sex: span(64, 1, 'sex'),
    expiryDate: span(65, 6, 'digit'),
    optional1: span(72, 16, 'alnum'),
  },
  checks: [
    { name: 'documentNumber', over: [{ start: 44, length: 9 }], at: 53 },
    { name: 'dateOfBirth', over: [{ start: 57, length: 6 }], at: 63 },
    { name: 'expiryDate', over: [{ start: 65, length: 6 }], at: 71 },
  ],
};

/** Smaller visas (the ID-2 size): no composite, 8 characters of optional data. */
export const MRV_B: MrzLayout = {
  format: 'MRV-B',
  lines: 2,
  lineLength: 36,
  documentCode: /^V[A-Z<]$/,
  fields: {
    documentCode: span(0, 2, 'alpha'),
    issuingCountry: span(2, 3, 'alpha'),
    name: span(5, 31, 'alpha'),
    documentNumber: span(36, 9, 'alnum'),
    nationality: span(46, 3, 'alpha'),
    dateOfBirth: span(49, 6, 'digit'),
    sex: span(56, 1, 'sex'),
    expiryDate: span(57, 6, 'digit'),
    optional1: span(64, 8, 'alnum'),
  },
  checks: [
    { name: 'documentNumber', over: [{ start: 36, length: 9 }], at: 45 },
    { name: 'dateOfBirth', over: [{ start: 49, length: 6 }], at: 55 },
    { name: 'expiryDate', over: [{ start: 57, length: 6 }], at: 63 },
  ],
};

/** Every layout, the documents' before the visas' of the same size. */
export const LAYOUTS: readonly MrzLayout[] = [TD1, TD2, TD3, MRV_A, MRV_B];

/**
 * The layouts of a zone with this many lines of this length (a document's and a visa's share a
 * size; the document code tells them apart).
 *
 * @example
 * layoutsFor(2, 44).map((l) => l.format); // ['TD3', 'MRV-A']
 */
export function layoutsFor(lines: number, lineLength: number): MrzLayout[] {
  return LAYOUTS.filter((l) => l.lines === lines && l.lineLength === lineLength);
}

/**
 * The layout of a zone with this many lines of this length, or null: with the zone's first
 * characters, the one whose document code they fit (`V…` a visa), else the document's.
 *
 * @example
 * layoutFor(2, 44)?.format; // 'TD3'
 * layoutFor(2, 44, 'VC')?.format; // 'MRV-A'
 */
export function layoutFor(lines: number, lineLength: number, code?: string): MrzLayout | null {
  const all = layoutsFor(lines, lineLength);
  if (code !== undefined) {
    const fit = all.find((l) => l.documentCode.test(code.slice(0, 2)));
    if (fit) return fit;
  }
  return all[0] ?? null;
}

/**
 * The check named `composite`, which visas do not have.
 *
 * @example
 * compositeOf(MRV_A); // undefined
 */
export function compositeOf(layout: MrzLayout): CheckSpec | undefined {
  return layout.checks.find((c) => c.name === 'composite');
}

/**
 * The character class of every position of a layout (check digits included).
 *
 * @example
 * classesOf(TD3)[53]; // 'check'
 */
export function classesOf(layout: MrzLayout): CharClass[] {
  const out: CharClass[] = new Array<CharClass>(layout.lines * layout.lineLength).fill('alnum');
  for (const f of Object.values(layout.fields)) {
    if (!f) continue;
    for (let i = 0; i < f.length; i++) out[f.start + i] = f.kind;
  }
  for (const c of layout.checks) out[c.at] = 'check';
  return out;
}
