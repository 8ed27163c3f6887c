/**
 * Position-aware correction of OCR output. MRZ has one font and fixed positions, so a reader's
 * confusions (`0`/`O`, `1`/`I`, `8`/`B`, `5`/`S`, fillers read as `K`, `L` or `C`) can be undone
 * where the position allows only one of the pair. Nothing here makes a check digit hold by
 * guessing freely: document numbers are only tried with their look-alike characters, and only a
 * single candidate that satisfies both its own and the composite check digit is taken.
 */
import { checkDigitHolds } from './check-digit';
import { classesOf, compositeOf, layoutFor, type CharClass, type MrzLayout } from './layout';

const TO_DIGIT: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  T: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};
const TO_ALPHA: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '6': 'G',
  '8': 'B',
};
/** Pairs a document number may confuse: both are legal there, so only a check digit decides. */
const LOOK_ALIKE: Record<string, string> = {
  ...TO_ALPHA,
  O: '0',
  I: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
  D: '0',
  Q: '0',
};

/** Glyphs the reader gives for the filler `<` (measured with tesseract's eng model). */
const FILLER_MISREADS = new Set(['<', 'K', 'L', 'C']);

/**
 * One OCR line as MRZ characters: upper case, spaces dropped, `«` as `<<`, other symbols dropped.
 *
 * @example
 * cleanLine('p<uto eriksson«anna'); // 'P<UTOERIKSSON<<ANNA'
 */
export function cleanLine(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/«/g, '<<')
    .replace(/[^A-Z0-9<]/g, '');
}

function fixLength(line: string, n: number): string | null {
  if (line.length === n) return line;
  if (line.length > n) {
    // Extra characters are nearly always fillers read twice: take them from the last filler run.
    const m = /<+(?=[^<]*$)/.exec(line);
    const run = m ? m[0].length : 0;
    const extra = line.length - n;
    if (!m || run <= extra) return null;
    return line.slice(0, m.index) + line.slice(m.index + extra);
  }
  // A short line lost fillers at its end (the reader drops a few of a long run).
  if (!/<$/.test(line) || n - line.length > 4) return null;
  return line + '<'.repeat(n - line.length);
}

function mapByClass(line: string, classes: readonly CharClass[], offset: number): string {
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    const k = classes[offset + i];
    if (k === 'digit' || k === 'check') out += c === '<' && k === 'check' ? c : (TO_DIGIT[c] ?? c);
    else if (k === 'alpha') out += TO_ALPHA[c] ?? c;
    else if (k === 'sex') out += c === 'N' || c === 'H' ? 'M' : c === 'E' || c === 'P' ? 'F' : c;
    else out += c;
  }
  return out;
}

/**
 * In a name field, fillers the reader turned into letters: the tail after the names is all
 * fillers, so a run of filler look-alikes that starts with a real `<` and reaches the end of the
 * field is all `<`, and so is a letter standing alone between two `<<` runs (`<<K<<`).
 */
function fixNameFillers(name: string): string {
  let end = name.length;
  let start = end;
  while (start > 0 && FILLER_MISREADS.has(name[start - 1]!)) start--;
  // The run must begin with a real filler, or a name ending in K, L or C would lose its letter.
  while (start < end && name[start] !== '<') start++;
  let out = name.slice(0, start) + '<'.repeat(end - start);
  out = out.replace(/<<[KLC](?=<<)/g, '<<<');
  end = out.length;
  return out;
}

function span(all: string, start: number, length: number) {
  return all.slice(start, start + length);
}

/**
 * Look-alike swaps of the document number that make its check digit and the composite hold (a
 * visa has no composite: then its own check digit alone, which tells fewer swaps apart).
 */
function repairNumber(all: string, layout: MrzLayout): string {
  const numberCheck = layout.checks.find((c) => c.name === 'documentNumber')!;
  const composite = compositeOf(layout) ?? numberCheck;
  const holds = (s: string, c: typeof composite) =>
    checkDigitHolds(c.over.map((o) => span(s, o.start, o.length)).join(''), s[c.at]!);
  if (holds(all, numberCheck) && holds(all, composite)) return all;
  const { start, length } = layout.fields.documentNumber;
  const positions: number[] = [];
  for (let i = start; i < start + length; i++) if (LOOK_ALIKE[all[i]!]) positions.push(i);
  if (positions.length === 0 || positions.length > 6) return all;
  const found: string[] = [];
  for (let mask = 1; mask < 1 << positions.length; mask++) {
    const chars = [...all];
    positions.forEach((p, b) => {
      if (mask & (1 << b)) chars[p] = LOOK_ALIKE[chars[p]!]!;
    });
    const s = chars.join('');
    if (holds(s, numberCheck) && holds(s, composite)) found.push(s);
  }
  return found.length === 1 ? found[0]! : all;
}

export interface Corrected {
  layout: MrzLayout;
  lines: string[];
}

/**
 * Finds the zone in OCR output (TD3 or MRV-A, TD2 or MRV-B, or TD1 by line count and length, the
 * document code telling a visa), fixes line lengths that differ by fillers, and maps every
 * position to what it may hold.
 *
 * @example
 * correctMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<KL<<',
 *   'L898902C36UT07408122F1204159ZE184226B<<<<<10'])?.lines[1];
 * // 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'
 */
export function correctMrz(rawLines: readonly string[]): Corrected | null {
  const lines = rawLines.map(cleanLine).filter((l) => l.length >= 20);
  let layout: MrzLayout | null = null;
  let picked: string[] = [];
  // Three lines near 30 are a TD1 before two of them could pass for lines of 36.
  for (const [count, length, slack] of [
    [2, 44, 5],
    [3, 30, 5],
    [2, 36, 3],
  ] as const) {
    const rows = lines.filter((l) => Math.abs(l.length - length) <= slack);
    if (rows.length < count) continue;
    picked = rows.slice(-count);
    layout = layoutFor(count, length, picked[0]!.replace(/^0/, 'O'));
    break;
  }
  if (!layout) return null;
  const fixed: string[] = [];
  for (const l of picked) {
    const f = fixLength(l, layout.lineLength);
    if (f === null) return null;
    fixed.push(f);
  }
  const classes = classesOf(layout);
  let all = fixed.map((l, i) => mapByClass(l, classes, i * layout.lineLength)).join('');
  const nf = layout.fields.name;
  all =
    all.slice(0, nf.start) +
    fixNameFillers(span(all, nf.start, nf.length)) +
    all.slice(nf.start + nf.length);
  all = repairNumber(all, layout);
  const out: string[] = [];
  for (let i = 0; i < layout.lines; i++) {
    out.push(all.slice(i * layout.lineLength, (i + 1) * layout.lineLength));
  }
  return { layout, lines: out };
}
