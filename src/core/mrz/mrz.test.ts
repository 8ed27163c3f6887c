import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDigit, composeMrz, correctMrz, parseMrz, type MrzInput } from '.';

const TODAY = Date.UTC(2026, 0, 1);
// ICAO 9303 part 4 (TD3) and part 5 (TD1) specimens.
const TD3_SPECIMEN = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
const TD1_SPECIMEN = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];

// ICAO 9303 part 6 (TD2) and part 7 (MRV-A, MRV-B) specimens.
const TD2_SPECIMEN = [
  'I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<',
  'D231458907UTO7408122F1204159<<<<<<<6',
];
const MRVA_SPECIMEN = [
  'V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L8988901C4XXX4009078F96121096ZE184226B<<<<<<',
];
const MRVB_SPECIMEN = [
  'V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<',
  'L8988901C4XXX4009078F9612109<<<<<<<<',
];

describe('check digits', () => {
  it('match the ICAO specimens', () => {
    expect(checkDigit('L898902C3')).toBe(6);
    expect(checkDigit('740812')).toBe(2);
    expect(checkDigit('120415')).toBe(9);
    expect(checkDigit('D23145890')).toBe(7);
  });
});

describe('parseMrz', () => {
  it('reads the TD3 specimen into every extractedData key', () => {
    const r = parseMrz(TD3_SPECIMEN, TODAY)!;
    expect(r.valid).toBe(true);
    expect(r.expired).toBe(true);
    expect(r.data).toEqual({
      firstName: 'ANNA MARIA',
      lastName: 'ERIKSSON',
      documentNumber: 'L898902C3',
      nationality: 'UTO',
      dateOfBirth: '1974-08-12',
      expiryDate: '2012-04-15',
      sex: 'F',
      documentType: 'passport',
      issuingCountry: 'UTO',
    });
  });
  it('reads the TD1 specimen', () => {
    const r = parseMrz(TD1_SPECIMEN, TODAY)!;
    expect(r.format).toBe('TD1');
    expect(r.valid).toBe(true);
    expect(r.data.documentNumber).toBe('D23145890');
    expect(r.data.documentType).toBe('id');
  });
  it('reads the TD2 specimen', () => {
    const r = parseMrz(TD2_SPECIMEN, TODAY)!;
    expect(r.format).toBe('TD2');
    expect(r.valid).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual([
      'documentNumber',
      'dateOfBirth',
      'expiryDate',
      'composite',
    ]);
    expect(r.data).toMatchObject({ documentNumber: 'D23145890', documentType: 'id', sex: 'F' });
  });
  it('tells a visa from a passport or a TD2 card of the same size by its V code', () => {
    const a = parseMrz(MRVA_SPECIMEN, TODAY)!;
    expect(a.format).toBe('MRV-A');
    expect(a.valid).toBe(true);
    expect(a.checks.map((c) => c.name)).not.toContain('composite');
    expect(a.data).toMatchObject({
      documentType: 'visa',
      documentNumber: 'L8988901C',
      nationality: 'XXX',
      dateOfBirth: '1940-09-07',
    });
    const b = parseMrz(MRVB_SPECIMEN, TODAY)!;
    expect(b.format).toBe('MRV-B');
    expect(b.valid).toBe(true);
    // The same zone with a passport's code is a TD3 whose composite does not hold.
    const asPassport = parseMrz(['P' + MRVA_SPECIMEN[0]!.slice(1), MRVA_SPECIMEN[1]!], TODAY)!;
    expect(asPassport.format).toBe('TD3');
    expect(asPassport.checksOk).toBe(false);
  });
  it('names the check that fails and refuses an unknown state', () => {
    const broken = [TD3_SPECIMEN[0]!, TD3_SPECIMEN[1]!.replace('7408122', '7408132')];
    const r = parseMrz(broken, TODAY)!;
    expect(r.valid).toBe(false);
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['dateOfBirth', 'composite']);
    const state = parseMrz([TD3_SPECIMEN[0]!.replace('UTO', 'UT0'), TD3_SPECIMEN[1]!], TODAY)!;
    expect(state.problems).toContain('unknown_issuing_country');
    expect(state.valid).toBe(false);
  });
  it('a single changed character of line 2 never passes every check', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 43 }), fc.constantFrom(...'0123456789'), (i, c) => {
        const l = TD3_SPECIMEN[1]!;
        fc.pre(l[i] !== c && /[0-9]/.test(l[i]!));
        const r = parseMrz([TD3_SPECIMEN[0]!, l.slice(0, i) + c + l.slice(i + 1)], TODAY)!;
        return !r.checksOk;
      }),
    );
  });
});

const input = fc.record({
  format: fc.constantFrom(
    'TD1' as const,
    'TD2' as const,
    'TD3' as const,
    'MRV-A' as const,
    'MRV-B' as const,
  ),
  lastName: fc.stringMatching(/^[A-Z]{2,10}$/),
  firstName: fc.stringMatching(/^[A-Z]{2,8}$/),
  documentNumber: fc.stringMatching(/^[A-Z0-9]{9}$/),
  yy: fc.integer({ min: 30, max: 99 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  sex: fc.constantFrom('M' as const, 'F' as const),
});

describe('composeMrz then parseMrz', () => {
  it('gives the fields back', () => {
    fc.assert(
      fc.property(input, (v) => {
        const two = (n: number) => String(n).padStart(2, '0');
        const m: MrzInput = {
          format: v.format,
          documentCode: v.format === 'TD3' ? 'P' : v.format.startsWith('MRV') ? 'V' : 'I',
          issuingCountry: 'UTO',
          nationality: 'FRA',
          lastName: v.lastName,
          firstName: v.firstName,
          documentNumber: v.documentNumber,
          dateOfBirth: `${two(v.yy)}${two(v.month)}${two(v.day)}`,
          expiryDate: `31${two(v.month)}${two(v.day)}`,
          sex: v.sex,
        };
        const r = parseMrz(composeMrz(m), TODAY)!;
        expect(r.format).toBe(v.format);
        expect(r.valid).toBe(true);
        expect(r.data.lastName).toBe(v.lastName);
        expect(r.data.firstName).toBe(v.firstName);
        expect(r.data.documentNumber).toBe(v.documentNumber);
        expect(r.data.dateOfBirth).toBe(`19${two(v.yy)}-${two(v.month)}-${two(v.day)}`);
      }),
    );
  });
});

describe('correctMrz', () => {
  it('maps look-alikes by position and restores filler tails', () => {
    const c = correctMrz([
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<KL<<',
      'L898902C36UT07408I22F12O4159ZE184226B<<<<<10',
    ])!;
    expect(c.lines).toEqual(TD3_SPECIMEN);
  });
  it('repairs a document-number look-alike when exactly one candidate makes both checks hold', () => {
    const lines = composeMrz({
      format: 'TD3',
      documentCode: 'P',
      issuingCountry: 'UTO',
      nationality: 'UTO',
      lastName: 'KAHN',
      firstName: 'MAX',
      documentNumber: 'K4HX7W0NP',
      dateOfBirth: '800101',
      sex: 'M',
      expiryDate: '300101',
    });
    const c = correctMrz([lines[0]!, lines[1]!.replace('K4HX7W0NP', 'K4HX7WONP')])!;
    expect(c.lines).toEqual(lines);
  });
  it('leaves an ambiguous document number as read (D23I: several candidates pass)', () => {
    const read = TD1_SPECIMEN[0]!.replace('D231', 'D23I');
    const c = correctMrz([read, TD1_SPECIMEN[1]!, TD1_SPECIMEN[2]!])!;
    expect(c.lines[0]).toBe(read);
    expect(parseMrz(c.lines, TODAY)!.checksOk).toBe(false);
  });
  it('finds a TD2 and a visa zone and keeps their format', () => {
    expect(correctMrz(['x', ...TD2_SPECIMEN])?.layout.format).toBe('TD2');
    const c = correctMrz([MRVA_SPECIMEN[0]!, MRVA_SPECIMEN[1]!.replace('4009078', '40O9078')])!;
    expect(c.layout.format).toBe('MRV-A');
    expect(c.lines).toEqual(MRVA_SPECIMEN);
  });
  it('returns null for text that is no zone', () => {
    expect(correctMrz(['HELLO WORLD', 'NOTHING HERE'])).toBeNull();
  });
});
