/**
 * From per-cell glyph scores to a zone, refusing what the zone cannot vouch for. Each cell has a
 * best character among those its position allows and, within `margin` of it, near ties: the
 * plausible readings. Fields with check digits (numbers, dates, optional data) take the one
 * combination of plausible readings that satisfies their check digit and the composite; fields
 * without (names, codes, sex) take the one combination that has their shape (a known state, a
 * sex letter, a name of ICAO's form), and when more than one combination fits, the zone is not
 * read: a near tie there could be a wrong name, and nothing would catch it. When the name is the
 * only such field and all else is resolved, the names that fit are offered (`nameOptions`) for
 * the printed fields to settle (`name-by-viz.ts`).
 */
import {
  checkDigitHolds,
  classesOf,
  compositeOf,
  isKnownCountry,
  type CharClass,
  type MrzLayout,
} from '../../core/mrz';

const ALLOWED: Record<CharClass, string> = {
  digit: '0123456789',
  check: '0123456789<',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ<',
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
  sex: 'MFX<',
};

const NAME_SHAPE = /^[A-Z]+(<[A-Z]+)*(<<[A-Z]+(<[A-Z]+)*)?<*$/;
const DATE_SHAPE = /^\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;
/** More combinations than this in one field is no longer a near tie but an unreadable field. */
const MAX_COMBINATIONS = 512;

export interface DecideOptions {
  /** A cell whose best allowed score is below this is not read at all. */
  minScore: number;
  /** Characters scoring within this of a cell's best are plausible readings of it. */
  margin: number;
}

export type Decision =
  | { status: 'resolved'; lines: string[] }
  /** No combination of plausible readings satisfies the check digits: `lines` is the best read. */
  | { status: 'checks_failed'; lines: string[] }
  /**
   * A weak cell, or more than one reading fits (`where` names the first such field). When the
   * name alone has more than one fitting reading and everything else is resolved, `nameOptions`
   * holds the zone with each of them (the printed fields may tell which: `name-by-viz.ts`).
   */
  | { status: 'unsure'; lines: string[]; where: string; nameOptions?: string[][] };

/** More fitting names than this are not offered to the printed fields. */
const MAX_NAME_OPTIONS = 8;

/**
 * The plausible characters of one cell: the best allowed character and those within `margin`.
 *
 * @example
 * const s = { O: 0.8, D: 0.79, Q: 0.6 } as Record<string, number>;
 * plausible((c) => s[c] ?? -2, 'ODQ', 0.02); // ['O', 'D']
 */
export function plausible(score: (c: string) => number, allowed: string, margin: number): string[] {
  const ranked = [...allowed].sort((a, b) => score(b) - score(a));
  const best = score(ranked[0]!);
  return ranked.filter((c) => score(c) >= best - margin);
}

/** Every string with one character from each set, or null past MAX_COMBINATIONS. */
function combinations(sets: readonly string[][]): string[] | null {
  let n = 1;
  for (const s of sets) n *= s.length;
  if (n > MAX_COMBINATIONS) return null;
  let out = [''];
  for (const s of sets) out = out.flatMap((p) => s.map((c) => p + c));
  return out;
}

interface Span {
  start: number;
  length: number;
}

/**
 * Chooses the zone from per-position scores (`score(position, char)`), as described above.
 *
 * @example
 * const d = decide(TD3, (i, c) => table[i]!.get(c) ?? -2, { minScore: 0.5, margin: 0.04 });
 * if (d.status === 'resolved') parseMrz(d.lines, today);
 */
export function decide(
  layout: MrzLayout,
  score: (position: number, c: string) => number,
  opts: DecideOptions,
): Decision {
  const classes = classesOf(layout);
  const n = layout.lines * layout.lineLength;
  const sets: string[][] = [];
  let weak = -1;
  for (let i = 0; i < n; i++) {
    const s = plausible((c) => score(i, c), ALLOWED[classes[i]!], opts.margin);
    sets.push(s);
    if (weak < 0 && score(i, s[0]!) < opts.minScore) weak = i;
  }
  const chosen = sets.map((s) => s[0]!);
  const linesOf = (all: string[]) => {
    const out: string[] = [];
    for (let l = 0; l < layout.lines; l++) {
      out.push(all.slice(l * layout.lineLength, (l + 1) * layout.lineLength).join(''));
    }
    return out;
  };
  const best = linesOf(chosen);
  if (weak >= 0) return { status: 'unsure', lines: best, where: `weak cell ${weak}` };

  // Unchecked fields: exactly one plausible combination may have the field's shape.
  const f = layout.fields;
  const shapes: [string, Span, (s: string) => boolean][] = [
    ['documentCode', f.documentCode, (s) => layout.documentCode.test(s)],
    ['issuingCountry', f.issuingCountry, isKnownCountry],
    ['nationality', f.nationality, isKnownCountry],
    ['sex', f.sex, (s) => /^[MFX<]$/.test(s)],
    ['name', f.name, (s) => NAME_SHAPE.test(s)],
  ];
  let names: { span: Span; fits: string[] } | null = null;
  for (const [name, sp, ok] of shapes) {
    const all = combinations(sets.slice(sp.start, sp.start + sp.length));
    const fits = all?.filter(ok) ?? [];
    if (name === 'name' && all && fits.length > 1 && fits.length <= MAX_NAME_OPTIONS) {
      names = { span: sp, fits };
      continue;
    }
    if (!all || fits.length > 1) return { status: 'unsure', lines: best, where: name };
    // No fitting combination: leave the best read, the parser reports what is wrong with it.
    if (fits.length === 1) for (let k = 0; k < sp.length; k++) chosen[sp.start + k] = fits[0]![k]!;
  }
  const checked = decideChecked(layout, sets, chosen, best, linesOf);
  if (!names) return checked;
  // The name is still open: refused, unless the rest is resolved; then each fitting name is
  // offered, the rest as resolved.
  if (checked.status !== 'resolved') return { status: 'unsure', lines: best, where: 'name' };
  const { span, fits } = names;
  const resolved = checked.lines.join('');
  const nameOptions = fits.map((fit) =>
    linesOf([...resolved.slice(0, span.start), ...fit, ...resolved.slice(span.start + fit.length)]),
  );
  return { status: 'unsure', lines: best, where: 'name', nameOptions };
}

/** The checked fields of `decide`, once the unchecked ones are in `chosen`. */
function decideChecked(
  layout: MrzLayout,
  sets: readonly string[][],
  chosen: readonly string[],
  best: string[],
  linesOf: (all: string[]) => string[],
): Decision {
  // Checked fields: each field with its own check digit, then the composite over them all (a
  // visa has none: its optional data is then unchecked, and read as best).
  const composite = compositeOf(layout);
  const own = layout.checks.filter((c) => c !== composite);
  const groups: { positions: number[]; options: string[] }[] = [];
  const covered = new Set<number>();
  for (const c of own) {
    const span = c.over[0]!;
    const positions = [...Array(span.length).keys()].map((k) => span.start + k).concat(c.at);
    const all = combinations(positions.map((p) => sets[p]!));
    if (!all) return { status: 'unsure', lines: best, where: c.name };
    const isDate = c.name === 'dateOfBirth' || c.name === 'expiryDate';
    const fits = all.filter(
      (s) =>
        checkDigitHolds(s.slice(0, span.length), s[span.length]!) &&
        (!isDate || DATE_SHAPE.test(s.slice(0, span.length))),
    );
    if (fits.length === 0) return { status: 'checks_failed', lines: best };
    groups.push({ positions, options: fits });
    positions.forEach((p) => covered.add(p));
  }
  // Positions only the composite covers (TD1 optional data), and the composite digit itself.
  if (composite) {
    const rest: number[] = [];
    for (const o of composite.over)
      for (let k = 0; k < o.length; k++) if (!covered.has(o.start + k)) rest.push(o.start + k);
    rest.push(composite.at);
    const restAll = combinations(rest.map((p) => sets[p]!));
    if (!restAll) return { status: 'unsure', lines: best, where: 'optional data' };
    groups.push({ positions: rest, options: restAll });
  }

  let total = 1;
  for (const g of groups) total *= g.options.length;
  if (total > MAX_COMBINATIONS * 8)
    return { status: 'unsure', lines: best, where: 'checked fields' };
  const hits: string[][] = [];
  const trial = [...chosen];
  const walk = (gi: number) => {
    if (hits.length > 1) return;
    if (gi === groups.length) {
      const body = composite?.over.map((o) => trial.slice(o.start, o.start + o.length).join(''));
      if (!composite || checkDigitHolds(body!.join(''), trial[composite.at]!))
        hits.push([...trial]);
      return;
    }
    const g = groups[gi]!;
    for (const opt of g.options) {
      g.positions.forEach((p, k) => (trial[p] = opt[k]!));
      walk(gi + 1);
    }
  };
  walk(0);
  if (hits.length === 0) return { status: 'checks_failed', lines: best };
  if (hits.length > 1) return { status: 'unsure', lines: best, where: 'checked fields' };
  return { status: 'resolved', lines: linesOf(hits[0]!) };
}

/**
 * Whether another reader's zone (tesseract's) may stand in for the glyph read: in every position
 * no check digit covers (codes, names, sex) it must say exactly what the glyph scores say with no
 * near tie (its names are otherwise unguarded); in checked positions its character must be one
 * the glyphs found at least roughly likely (within `wide` of the cell's best) unless the glyphs
 * had no opinion there (a weak cell), so that it mends unclear cells and cannot rewrite clear
 * ones (its correction may swap look-alikes until a check digit holds: a broken check digit
 * must stay broken). With `lines` null: whether the glyph scores have no near tie in the
 * unchecked positions (whether asking another reader could help at all).
 *
 * @example
 * if (agreesWithGlyphs(TD3, score, OPTS, lines)) mrz = parseMrz(lines, today);
 */
export function agreesWithGlyphs(
  layout: MrzLayout,
  score: (position: number, c: string) => number,
  opts: DecideOptions & { wide: number },
  lines: readonly string[] | null,
): boolean {
  const classes = classesOf(layout);
  const all = lines?.join('') ?? null;
  if (all !== null && all.length !== classes.length) return false;
  for (let i = 0; i < classes.length; i++) {
    const k = classes[i]!;
    const s = plausible((c) => score(i, c), ALLOWED[k], opts.margin);
    if (k === 'alpha' || k === 'sex') {
      if (s.length !== 1 || (all !== null && s[0] !== all[i])) return false;
    } else if (all !== null) {
      const best = score(i, s[0]!);
      if (best >= opts.minScore && score(i, all[i]!) < best - opts.wide) return false;
    }
  }
  return true;
}
