/**
 * The deterministic check of a `data_validation` node (decisions.md): read one field of the
 * session's data, apply the action, yield `passed` or `failed`. No AI is asked.
 */
import { patternMatches } from '../../core/flow/pattern';
import { isEmail, normalizePhone } from '../otp/codes';

export type CheckResult = 'passed' | 'failed';

export interface ValidationSpec {
  field: string;
  action: string;
  value?: string | number;
}

/** The data a field path reads: `providedData.email`, `extractedData.dateOfBirth`, `metadata.x`. */
export interface SessionData {
  providedData: Readonly<Record<string, unknown>>;
  extractedData: Readonly<Record<string, unknown>>;
  metadata: Readonly<Record<string, unknown>>;
}

/**
 * Reads `root.key` from the session's data, as text: a number or a boolean (providedData and
 * metadata may hold them) reads as its JSON text; null, an object or an array reads as absent.
 *
 * @example
 * readField({ providedData: { email: 'a@b.c' }, extractedData: {}, metadata: {} }, 'providedData.email'); // 'a@b.c'
 */
export function readField(data: SessionData, path: string): string | undefined {
  const dot = path.indexOf('.');
  if (dot < 0) return undefined;
  const root = path.slice(0, dot) as keyof SessionData;
  const map = data[root];
  if (!map || typeof map !== 'object') return undefined;
  const v = map[path.slice(dot + 1)];
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v === 'string' ? v : undefined;
}

/**
 * Reads a date in the forms documents and forms use: `YYYY-MM-DD`, `YYYYMMDD`, `DD.MM.YYYY`,
 * `DD/MM/YYYY`. Returns UTC midnight in ms, or null.
 *
 * @example
 * parseDate('1990-04-01') === Date.UTC(1990, 3, 1); // true
 */
export function parseDate(text: string): number | null {
  const t = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  let y: number, mo: number, d: number;
  if (m) {
    [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  } else {
    m = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(t);
    if (!m) return null;
    [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  }
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    return null;
  }
  return ms;
}

/**
 * Whole years between a birth date and `now`.
 *
 * @example
 * ageAt(Date.UTC(2000, 5, 15), Date.UTC(2018, 5, 14)); // 17
 */
export function ageAt(birth: number, now: number): number {
  const b = new Date(birth);
  const n = new Date(now);
  let age = n.getUTCFullYear() - b.getUTCFullYear();
  const before =
    n.getUTCMonth() < b.getUTCMonth() ||
    (n.getUTCMonth() === b.getUTCMonth() && n.getUTCDate() < b.getUTCDate());
  if (before) age -= 1;
  return age;
}

/**
 * A name reduced for comparison: no accents, no case, no punctuation, words sorted.
 *
 * @example
 * normalizeName('  Müller-Lüdenscheidt, Hans '); // 'hans muller ludenscheidt'
 */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      prev[j] = Math.min(
        up + 1,
        (prev[j - 1] as number) + 1,
        diag + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diag = up;
    }
  }
  return prev[b.length] as number;
}

/**
 * The fuzzy name match of `sameAs`: equal once normalised, or at most one edit in eight
 * characters (OCR slips, a missing accent or hyphen), or one name's words all inside the other's
 * (a middle name left out).
 *
 * @example
 * sameName('José Álvarez', 'JOSE ALVAREZ'); // true
 * sameName('Anna Smith', 'John Smith'); // false
 */
export function sameName(a: string, b: string): boolean {
  const x = normalizeName(a);
  const y = normalizeName(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const longest = Math.max(x.length, y.length);
  if (levenshtein(x, y) <= Math.floor(longest / 8)) return true;
  const xs = x.split(' ');
  const ys = y.split(' ');
  const [short, long] = xs.length <= ys.length ? [xs, ys] : [ys, xs];
  return short.length >= 2 && short.every((w) => long.includes(w));
}

/**
 * Runs the check of a data_validation node over the session's data.
 *
 * @example
 * runValidation({ field: 'providedData.dob', action: 'minAge', value: 18 },
 *   { providedData: { dob: '1990-01-01' }, extractedData: {}, metadata: {} }, Date.now()); // 'passed'
 */
export function runValidation(spec: ValidationSpec, data: SessionData, now: number): CheckResult {
  const v = readField(data, spec.field);
  const arg = spec.value === undefined ? '' : String(spec.value);
  const ok = (b: boolean): CheckResult => (b ? 'passed' : 'failed');
  if (spec.action === 'exists') return ok(v !== undefined && v.trim() !== '');
  if (spec.action === 'notEquals')
    return ok((v ?? '').trim().toLowerCase() !== arg.trim().toLowerCase());
  if (v === undefined) return 'failed';
  switch (spec.action) {
    case 'equals':
      return ok(v.trim().toLowerCase() === arg.trim().toLowerCase());
    case 'contains':
      return ok(v.toLowerCase().includes(arg.toLowerCase()));
    case 'matches':
      return ok(patternMatches(arg, v));
    case 'minAge':
    case 'maxAge': {
      const birth = parseDate(v);
      if (birth === null) return 'failed';
      const age = ageAt(birth, now);
      return ok(spec.action === 'minAge' ? age >= Number(arg) : age <= Number(arg));
    }
    case 'notExpired': {
      const expiry = parseDate(v);
      // A document is valid through its expiry date.
      return ok(expiry !== null && expiry + 24 * 3600 * 1000 > now);
    }
    case 'sameAs': {
      const other = readField(data, arg);
      return ok(other !== undefined && sameName(v, other));
    }
    case 'isEmail':
      return ok(isEmail(v.trim()));
    case 'isPhone':
      return ok(normalizePhone(v) !== null);
    case 'isNumber':
      return ok(/^[-+]?(\d+([.,]\d+)?|[.,]\d+)$/.test(v.trim()));
    case 'isDate':
      return ok(parseDate(v) !== null);
    default:
      return 'failed';
  }
}

/**
 * The outcome a check result selects: the first whose condition is that word or empty.
 *
 * @example
 * pickCheckOutcome([{ id: 'ok', condition: 'passed' }, { id: 'ko', condition: '' }], 'failed'); // 'ko'
 */
export function pickCheckOutcome(
  outcomes: readonly { id: string; condition?: string }[],
  result: CheckResult,
): string | null {
  const hit = outcomes.find((o) => {
    const c = (o.condition ?? '').trim().toLowerCase();
    return c === '' || c === result;
  });
  return hit ? hit.id : null;
}
