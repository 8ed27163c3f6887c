/**
 * The synthetic documents of the test set: varied names, dates and numbers from a seed, each with
 * what it must read as. Fictional people of the ICAO specimen state `UTO` and of real states.
 */
import { composeMrz, type MrzInput } from '../../src/core/mrz';
import { seededRandom } from '../../src/core/random';

export type Variant = 'valid' | 'broken_check' | 'expired';
/** How hard the photograph is: `clean` is a flat scan, `heavy` is outside the accuracy target. */
export type Level = 'clean' | 'mild' | 'moderate' | 'heavy';

export interface Specimen {
  id: string;
  kind: 'passport' | 'id';
  variant: Variant;
  level: Level;
  seed: number;
  mrz: MrzInput;
  lines: string[];
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
const STATES = ['UTO', 'GBR', 'FRA', 'NLD', 'SWE', 'POL', 'NGA', 'JPN', 'BRA', 'ITA', 'D', 'CAN'];
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const two = (n: number) => String(n).padStart(2, '0');

function yymmdd(r: () => number, fromYear: number, toYear: number): string {
  const y = fromYear + Math.floor(r() * (toYear - fromYear + 1));
  const m = 1 + Math.floor(r() * 12);
  const d = 1 + Math.floor(r() * 28);
  return `${two(y % 100)}${two(m)}${two(d)}`;
}

function docNumber(r: () => number): string {
  // Letters and digits mixed, as many states issue them: the reader's hardest field.
  let s = '';
  for (let i = 0; i < 9; i++) s += r() < 0.3 ? pick(r, [...LETTERS]) : String(Math.floor(r() * 10));
  return s;
}

/** A check digit of the zone changed to a wrong one (document number, birth or expiry date). */
function breakCheck(lines: string[], kind: 'passport' | 'id', r: () => number): string[] {
  const at =
    kind === 'passport'
      ? pick(r, [
          [1, 9],
          [1, 19],
          [1, 27],
        ])
      : pick(r, [
          [0, 14],
          [1, 6],
          [1, 14],
        ]);
  const [li, ci] = at as [number, number];
  const line = lines[li]!;
  const wrong = String((Number(line[ci]) + 1 + Math.floor(r() * 8)) % 10);
  const out = [...lines];
  out[li] = line.slice(0, ci) + wrong + line.slice(ci + 1);
  return out;
}

/**
 * One specimen from a seed.
 *
 * @example
 * specimen(7, 'passport', 'valid', 'mild').lines.length; // 2
 */
export function specimen(
  seed: number,
  kind: 'passport' | 'id',
  variant: Variant,
  level: Level,
): Specimen {
  const r = rng(seed * 7919 + (kind === 'id' ? 13 : 0));
  const state = pick(r, STATES);
  const mrz: MrzInput = {
    format: kind === 'passport' ? 'TD3' : 'TD1',
    documentCode: kind === 'passport' ? 'P' : pick(r, ['I', 'ID']),
    issuingCountry: state,
    lastName: pick(r, LAST),
    firstName: pick(r, FIRST),
    documentNumber: docNumber(r),
    nationality: r() < 0.8 ? state : pick(r, STATES),
    dateOfBirth: yymmdd(r, 1950, 2006),
    sex: pick(r, ['M', 'F', 'F', 'M', '<'] as const),
    expiryDate: variant === 'expired' ? yymmdd(r, 2012, 2024) : yymmdd(r, 2028, 2036),
    ...(kind === 'passport' && r() < 0.5 ? { optional1: docNumber(r).slice(0, 7) } : {}),
  };
  let lines = composeMrz(mrz);
  if (variant === 'broken_check') lines = breakCheck(lines, kind, r);
  return { id: `${kind}-${variant}-${level}-${seed}`, kind, variant, level, seed, mrz, lines };
}

/**
 * The whole test set: per kind, `perLevel` valid documents at each level, and a few broken and
 * expired ones at the clean and moderate levels.
 *
 * @example
 * testSet(10).filter((s) => s.variant === 'valid').length; // 80
 */
export function testSet(perLevel: number, extra = 4): Specimen[] {
  const out: Specimen[] = [];
  let seed = 1;
  for (const kind of ['passport', 'id'] as const) {
    for (const level of ['clean', 'mild', 'moderate', 'heavy'] as const) {
      for (let i = 0; i < perLevel; i++) out.push(specimen(seed++, kind, 'valid', level));
    }
    for (const variant of ['broken_check', 'expired'] as const) {
      for (const level of ['clean', 'moderate'] as const) {
        for (let i = 0; i < extra; i++) out.push(specimen(seed++, kind, variant, level));
      }
    }
  }
  return out;
}
