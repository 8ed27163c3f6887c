import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aamvaDate, composeAamva, parseAamva, type AamvaInput } from '.';

const TODAY = Date.UTC(2026, 0, 1);

// In the style of the standard's annex (version 8, California): the designator offsets do not
// match the text, as on many printed cards, and a jurisdiction subfile follows.
const ANNEX_STYLE = [
  '@',
  '\x1e\rANSI 636014080102DL00410278ZC03190024DLDAQD1234562',
  'DCSSAMPLE',
  'DDEN',
  'DACALEXANDER',
  'DDFN',
  'DADJOSEPH',
  'DDGN',
  'DCAC',
  'DCBNONE',
  'DCDNONE',
  'DBD08292017',
  'DBB08291977',
  'DBA08292029',
  'DBC1',
  'DAU069 IN',
  'DAYBRO',
  'DAG2570 24TH STREET',
  'DAIANYTOWN',
  'DAJCA',
  'DAK958180000  ',
  'DCF83D9BN217QO983B1',
  'DCGUSA\rZCZCAY',
  'ZCBCORR LENS\r',
].join('\n');

const sample = (over: Partial<AamvaInput> = {}): AamvaInput => ({
  version: 10,
  iin: '636014',
  subfile: 'DL',
  country: 'USA',
  lastName: 'SAMPLE',
  firstName: 'ALEXANDER',
  middleName: 'JOSEPH',
  number: 'D1234562',
  dateOfBirth: '1977-08-29',
  issueDate: '2017-08-29',
  expiryDate: '2029-08-29',
  sex: 'M',
  licenceClass: 'C',
  street: '2570 24TH STREET',
  city: 'ANYTOWN',
  jurisdiction: 'CA',
  postalCode: '958180000',
  ...over,
});

describe('parseAamva', () => {
  it('reads a licence in the annex style into the extractedData keys and the licence’s own', () => {
    const r = parseAamva(ANNEX_STYLE, TODAY)!;
    expect(r.valid).toBe(true);
    expect(r.version).toBe(8);
    expect(r.subfile).toBe('DL');
    expect(r.issueDate).toBe('2017-08-29');
    expect(r.data).toEqual({
      firstName: 'ALEXANDER JOSEPH',
      lastName: 'SAMPLE',
      documentNumber: 'D1234562',
      nationality: '',
      dateOfBirth: '1977-08-29',
      expiryDate: '2029-08-29',
      sex: 'M',
      documentType: 'dl',
      issuingCountry: 'USA',
      licenceClass: 'C',
      address: '2570 24TH STREET, ANYTOWN, CA 95818',
    });
    // The jurisdiction's subfile is not read into the licence's elements.
    expect(r.elements['ZCB']).toBeUndefined();
  });

  it('reads every version 1–10, US and Canadian, to the same fields', () => {
    const us = sample();
    const ca = sample({
      country: 'CAN',
      iin: '636012',
      jurisdiction: 'ON',
      city: 'OTTAWA',
      postalCode: 'K1A0B1',
      licenceClass: 'G',
    });
    for (let version = 1; version <= 10; version++) {
      for (const input of [us, ca]) {
        const r = parseAamva(composeAamva({ ...input, version }), TODAY)!;
        expect(r.problems, `version ${version}`).toEqual([]);
        expect(r.version).toBe(version);
        expect(r.data).toMatchObject({
          firstName: `${input.firstName} ${input.middleName}`,
          lastName: input.lastName,
          documentNumber: input.number,
          dateOfBirth: input.dateOfBirth,
          expiryDate: input.expiryDate,
          sex: 'M',
          issuingCountry: input.country,
          licenceClass: input.licenceClass,
        });
        expect(r.issueDate).toBe(input.issueDate);
      }
    }
  });

  it('formats addresses and sexes as the standard codes them', () => {
    const nine = parseAamva(composeAamva(sample({ postalCode: '958181234', sex: 'X' })), TODAY)!;
    expect(nine.data.address).toBe('2570 24TH STREET, ANYTOWN, CA 95818-1234');
    expect(nine.data.sex).toBe('X');
    const ontario = parseAamva(
      composeAamva(sample({ country: 'CAN', jurisdiction: 'ON', postalCode: 'K1A0B1' })),
      TODAY,
    )!;
    expect(ontario.data.address).toBe('2570 24TH STREET, ANYTOWN, ON K1A0B1');
    const noMiddle = parseAamva(composeAamva(sample({ middleName: '' })), TODAY)!;
    expect(noMiddle.data.firstName).toBe('ALEXANDER');
  });

  it('says what is wrong, and is null for text that is no licence', () => {
    expect(parseAamva('HELLO', TODAY)).toBeNull();
    expect(parseAamva('@\n\x1e\rANSI 636014100101', TODAY)).toBeNull();
    const bad = parseAamva(
      composeAamva(sample({ dateOfBirth: '1977-02-30', iin: '123456', version: 11 })),
      TODAY,
    )!;
    expect(bad.valid).toBe(false);
    expect(bad.problems).toEqual(
      expect.arrayContaining([
        'unsupported_version',
        'invalid_date_of_birth',
        'unknown_jurisdiction',
      ]),
    );
    const old = parseAamva(composeAamva(sample({ expiryDate: '2020-01-01' })), TODAY)!;
    expect(old.expired).toBe(true);
  });

  it('reads both date forms and never confuses them', () => {
    expect(aamvaDate('08291977')).toEqual({ year: 1977, month: 8, day: 29 });
    expect(aamvaDate('19770829')).toEqual({ year: 1977, month: 8, day: 29 });
    expect(aamvaDate('02301977')).toBeNull();
    fc.assert(
      fc.property(fc.date({ min: new Date(1900, 0, 1), max: new Date(2099, 11, 31) }), (d) => {
        fc.pre(!Number.isNaN(d.getTime()));
        const y = String(d.getUTCFullYear());
        const m = String(d.getUTCMonth() + 1).padStart(2, '0');
        const day = String(d.getUTCDate()).padStart(2, '0');
        const want = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
        return (
          JSON.stringify(aamvaDate(`${m}${day}${y}`)) === JSON.stringify(want) &&
          JSON.stringify(aamvaDate(`${y}${m}${day}`)) === JSON.stringify(want)
        );
      }),
    );
  });
});
