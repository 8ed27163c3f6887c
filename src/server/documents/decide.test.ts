import { describe, expect, it } from 'vitest';
import { TD3, composeMrz, parseMrz } from '../../core/mrz';
import { agreesWithGlyphs, decide, plausible } from './decide';

const LINES = composeMrz({
  format: 'TD3',
  documentCode: 'P',
  issuingCountry: 'UTO',
  lastName: 'ERIKSSON',
  firstName: 'ANNA MARIA',
  documentNumber: 'L898902C3',
  nationality: 'UTO',
  dateOfBirth: '740812',
  sex: 'F',
  expiryDate: '340415',
  optional1: 'ZE184226B',
});
const TRUTH = LINES.join('');
const OPTS = { minScore: 0.5, margin: 0.04 };

/**
 * Scores as a reader would give them: the printed character 0.9, every other 0.3, and `ties`
 * (position → character → score) for near ties and misreads.
 */
function scores(ties: Record<number, Record<string, number>> = {}, text = TRUTH) {
  return (i: number, c: string) => ties[i]?.[c] ?? (c === text[i] ? 0.9 : 0.3);
}

describe('plausible', () => {
  it('keeps the best and what is within the margin, best first', () => {
    const s: Record<string, number> = { O: 0.8, D: 0.79, Q: 0.6 };
    expect(plausible((c) => s[c] ?? -2, 'QDO', 0.02)).toEqual(['O', 'D']);
  });
});

describe('decide', () => {
  it('reads a clear zone as printed', () => {
    const d = decide(TD3, scores(), OPTS);
    expect(d).toEqual({ status: 'resolved', lines: LINES });
    expect(parseMrz(d.lines, Date.UTC(2026, 0, 1))?.valid).toBe(true);
  });

  it('lets the check digit settle a near tie in the document number', () => {
    // Position 44 is `L`; an `I` scores a hair higher, but only `L` satisfies the check digit.
    const d = decide(TD3, scores({ 44: { I: 0.91 } }), OPTS);
    expect(d).toEqual({ status: 'resolved', lines: LINES });
  });

  it('refuses a near tie the check digits cannot tell apart (L and 1 weigh the same)', () => {
    // L = 21 and 1: the same modulo 10, so both readings satisfy every check digit.
    const d = decide(TD3, scores({ 44: { '1': 0.89 } }), OPTS);
    expect(d).toMatchObject({ status: 'unsure', where: 'checked fields' });
  });

  it('refuses a near tie the check digits cannot tell apart (8 and S weigh the same)', () => {
    // 8 = 8 and S = 28: the same modulo 10, so both readings satisfy every check digit.
    const fixed = composeMrz({
      format: 'TD3',
      documentCode: 'P',
      issuingCountry: 'UTO',
      lastName: 'ERIKSSON',
      firstName: 'ANNA MARIA',
      documentNumber: '8898902C3',
      nationality: 'UTO',
      dateOfBirth: '740812',
      sex: 'F',
      expiryDate: '340415',
      optional1: 'ZE184226B',
    });
    const d = decide(TD3, scores({ 44: { S: 0.89 } }, fixed.join('')), OPTS);
    expect(d.status).toBe('unsure');
  });

  it('says checks_failed when no plausible reading satisfies a check digit', () => {
    const broken = TRUTH.slice(0, 53) + '0' + TRUTH.slice(54);
    const d = decide(TD3, scores({}, broken), OPTS);
    expect(d.status).toBe('checks_failed');
    expect(d.lines.join('')).toBe(broken);
  });

  it('refuses a near tie in a name, where nothing checks the letter', () => {
    const d = decide(TD3, scores({ 5: { D: 0.89 } }), OPTS);
    expect(d).toMatchObject({ status: 'unsure', where: 'name' });
  });

  it('offers every fitting name, the rest resolved, when only the name is open', () => {
    // The document number's near tie is settled by its check digit; the name's is not.
    const d = decide(TD3, scores({ 5: { D: 0.89 }, 44: { I: 0.91 } }), OPTS);
    const other = [`${LINES[0]!.slice(0, 5)}D${LINES[0]!.slice(6)}`, LINES[1]!];
    expect(d).toMatchObject({ status: 'unsure', where: 'name', nameOptions: [LINES, other] });
  });

  it('offers no name when the check digits do not hold either', () => {
    const broken = [LINES[0]!, `${LINES[1]!.slice(0, 9)}0${LINES[1]!.slice(10)}`];
    const d = decide(TD3, scores({ 5: { D: 0.89 } }, broken.join('')), OPTS);
    expect(d).toMatchObject({ status: 'unsure', where: 'name' });
    expect(d).not.toHaveProperty('nameOptions');
  });

  it('settles a near tie in a state code when only one reading is a known state', () => {
    // `UTO` against `UTQ` (not a state): only the known code fits.
    const d = decide(TD3, scores({ 4: { Q: 0.91 } }), OPTS);
    expect(d).toEqual({ status: 'resolved', lines: LINES });
  });

  it('refuses a near tie between two known states', () => {
    // `GBR` and `GBD` are both codes ICAO lists.
    const text = TRUTH.slice(0, 2) + 'GBR' + TRUTH.slice(5);
    const d = decide(TD3, scores({ 4: { D: 0.895 } }, text), OPTS);
    expect(d).toMatchObject({ status: 'unsure', where: 'issuingCountry' });
  });

  it('does not read a zone with a weak cell', () => {
    // Position 60 is the `8` of the birth date.
    const d = decide(TD3, scores({ 60: { '8': 0.4 } }), OPTS);
    expect(d).toMatchObject({ status: 'unsure', where: 'weak cell 60' });
  });
});

const W = { ...OPTS, wide: 0.15 };

describe('agreesWithGlyphs', () => {
  it('lets another reader stand in only where it says what the glyphs say in unchecked places', () => {
    expect(agreesWithGlyphs(TD3, scores(), W, LINES)).toBe(true);
    // A digit the glyphs read clearly as another may not be rewritten…
    const digit = [LINES[0]!, `${LINES[1]!.slice(0, 13)}9${LINES[1]!.slice(14)}`];
    expect(agreesWithGlyphs(TD3, scores(), W, digit)).toBe(false);
    // …but one they found about as likely, or had no opinion on, may.
    expect(agreesWithGlyphs(TD3, scores({ 57: { '9': 0.8 } }), W, digit)).toBe(true);
    expect(agreesWithGlyphs(TD3, scores({ 57: { '7': 0.3 } }), W, digit)).toBe(true);
    // A different letter in the name is not taken.
    const name = [`${LINES[0]!.slice(0, 5)}A${LINES[0]!.slice(6)}`, LINES[1]!];
    expect(agreesWithGlyphs(TD3, scores(), W, name)).toBe(false);
  });
  it('does not take a name letter the glyphs found a near tie for, even the printed one', () => {
    expect(agreesWithGlyphs(TD3, scores({ 5: { D: 0.89 } }), W, LINES)).toBe(false);
    expect(agreesWithGlyphs(TD3, scores({ 5: { D: 0.89 } }), W, null)).toBe(false);
    expect(agreesWithGlyphs(TD3, scores({ 60: { '3': 0.89 } }), W, null)).toBe(true);
  });
});
