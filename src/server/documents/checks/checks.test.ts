import { describe, expect, it } from 'vitest';
import { composeAamva, parseAamva } from '../../../core/aamva';
import { composeMrz, parseMrz, type MrzInput } from '../../../core/mrz';
import { judgeOriginal } from '../original';
import { datesCheck } from './dates';
import { faceCheck } from './face';
import { documentChecks, unreadChecks } from './index';
import { licenceIssuerCheck, stateCheck } from './states';
import { missingFields, saysVoid, specimenCheck, substringDistance, visualZoneCheck } from './viz';

const TODAY = Date.UTC(2026, 0, 1);

const passport = (over: Partial<MrzInput> = {}) =>
  parseMrz(
    composeMrz({
      format: 'TD3',
      documentCode: 'P',
      issuingCountry: 'FRA',
      nationality: 'FRA',
      lastName: 'DUBOIS',
      firstName: 'JOAO PEDRO',
      documentNumber: 'H7C539FC6',
      dateOfBirth: '890307',
      sex: 'M',
      expiryDate: '320323',
      ...over,
    }),
    TODAY,
  )!;

// What tesseract made of a mildly photographed data page (docs/documents.md).
const PRINTED =
  'Surnam\nN\nDUBOIS\nGivenname\nPrenor\nJOAOPEDRO\nationality\nFRA\nDate\nb\n07.03.1989\nSe\nM\nDateofexpiry\n23.03.2032\nDocumer\nH7C539FC6';

describe('issuing states', () => {
  it('takes ICAO codes and refuses invented ones', () => {
    expect(stateCheck('issuingState', 'FRA', 'live').result).toBe('passed');
    expect(stateCheck('nationality', 'D<<', 'live')).toEqual({
      name: 'nationality',
      result: 'passed',
      detail: 'D',
    });
    expect(stateCheck('issuingState', 'ZQX', 'test')).toMatchObject({
      result: 'failed',
      detail: "ZQX is no state's code",
    });
  });
  it('takes the ICAO specimen state UTO in test mode only', () => {
    expect(stateCheck('issuingState', 'UTO', 'test').result).toBe('passed');
    expect(stateCheck('issuingState', 'UTO', 'live')).toMatchObject({
      result: 'failed',
      detail: 'UTO is the ICAO specimen state (test mode only)',
    });
  });
  it('takes a licence of an AAMVA jurisdiction only', () => {
    const licence = (iin: string, jurisdiction: string) =>
      parseAamva(
        composeAamva({
          version: 10,
          iin,
          subfile: 'DL',
          country: 'USA',
          lastName: 'SAMPLE',
          firstName: 'ALEX',
          middleName: '',
          number: 'D1234562',
          dateOfBirth: '1977-08-29',
          issueDate: '2021-08-29',
          expiryDate: '2029-08-29',
          sex: 'M',
          licenceClass: 'C',
          street: '1 MAIN ST',
          city: 'AUSTIN',
          jurisdiction,
          postalCode: '787010000',
        }),
        TODAY,
      )!;
    expect(licenceIssuerCheck(licence('636015', 'TX')).result).toBe('passed');
    expect(licenceIssuerCheck(licence('999123', 'TX')).result).toBe('failed');
    expect(licenceIssuerCheck(licence('636015', 'ZZ')).result).toBe('failed');
    // A Canadian province in a barcode that says USA.
    expect(licenceIssuerCheck(licence('636012', 'ON')).detail).toBe('636012 ON: ON is not in USA');
  });
});

describe('dates', () => {
  const d = (
    dateOfBirth: string,
    issueDate: string,
    expiryDate: string,
    kind: 'zone' | 'licence',
  ) => datesCheck({ dateOfBirth, issueDate, expiryDate }, TODAY, kind);
  it('passes dates that can be', () => {
    expect(d('1980-05-01', '', '2031-01-01', 'zone').result).toBe('passed');
    expect(d('1980-05-01', '2022-01-01', '2030-01-01', 'licence').result).toBe('passed');
  });
  it('names the first rule that fails', () => {
    expect(d('1980-05-01', '', '2061-01-01', 'zone').detail).toBe('expires in 35 years');
    expect(d('1980-05-01', '1975-01-01', '2030-01-01', 'licence').detail).toBe(
      'issued before the holder was born',
    );
    expect(d('1980-05-01', '1990-01-01', '2003-01-01', 'licence').detail).toBe('issued at age 9');
    expect(d('1980-05-01', '2027-01-01', '2030-01-01', 'licence').detail).toBe(
      'issued in the future',
    );
    expect(d('1980-05-01', '2020-01-01', '2019-01-01', 'licence').detail).toBe(
      'issued after it expires',
    );
    expect(d('1900-05-01', '', '2030-01-01', 'zone').detail).toBe('holder aged 125');
    expect(d('', '', '2030-01-01', 'zone').result).toBe('failed');
  });
});

describe('the visual zone', () => {
  const want = {
    lastName: 'DUBOIS',
    firstName: 'JOAO PEDRO',
    documentNumber: 'H7C539FC6',
    dateOfBirth: '1989-03-07',
  };
  it('agrees when the printed text holds the name, number and birth date, despite OCR slips', () => {
    expect(missingFields(PRINTED, want)).toEqual([]);
    // An O read as 0 in the number, a letter lost in the name.
    expect(missingFields(PRINTED.replace('DUBOIS', 'DUB0IS'), want)).toEqual([]);
    expect(missingFields(PRINTED.replace('H7C539FC6', 'H7C539F66'), want)).toEqual([]);
  });
  it('disagrees with another person’s fields, and says which', () => {
    const other = PRINTED.replace('DUBOIS', 'MACKENZIE')
      .replace('07.03.1989', '07.03.1991')
      .replace('H7C539FC6', 'YY40E8548');
    expect(missingFields(other, want)).toEqual(['lastName', 'documentNumber', 'dateOfBirth']);
    expect(visualZoneCheck(other, want)).toMatchObject({
      result: 'failed',
      detail: 'lastName, documentNumber, dateOfBirth not printed',
    });
  });
  it('reads US and written dates, and fails when nothing was read', () => {
    const us = 'LN DUBOIS FN JOAO DL H7C539FC6 DOB 03/07/1989';
    expect(missingFields(us, want)).toEqual([]);
    expect(missingFields('DUBOIS JOAO H7C539FC6 07 MAR 1989', want)).toEqual([]);
    expect(visualZoneCheck('  \n', want).result).toBe('failed');
    expect(visualZoneCheck(null, want).result).toBe('not_performed');
  });
  it('measures edit distance to the nearest substring', () => {
    expect(substringDistance('DUBOIS', 'SURNAMEDUB0ISGIVEN')).toBe(1);
    expect(substringDistance('ABC', 'XXABCXX')).toBe(0);
    expect(substringDistance('ABC', '')).toBe(3);
  });
});

describe('SPECIMEN and VOID', () => {
  it('finds the words in the fields, and a stamp read in pieces in the large print', () => {
    expect(specimenCheck({ fields: ['SURNAME SPECIMEN'] }).detail).toBe('SPECIMEN');
    expect(specimenCheck({ fields: ['NAME'], bigPrint: ['PASSPORT IMEN', 'gCIMEN'] }).detail).toBe(
      'SPECIMEN',
    );
    expect(specimenCheck({ fields: ['FN GRACE VOID'] }).detail).toBe('VOID');
    expect(specimenCheck({ fields: [], bigPrint: ['ILDRIVERLI usa voIiD'] }).detail).toBe('VOID');
  });
  it("does not take the holder's name in a card's large print for VOID", () => {
    const david = { fields: [], bigPrint: ['IDENTITYCARD DAVID VOIGT'], names: ['VOIGT', 'DAVID'] };
    expect(specimenCheck(david).result).toBe('passed');
    expect(specimenCheck({ fields: [], bigPrint: ['DAVID VOlD'], names: ['DAVID'] }).detail).toBe(
      'VOID',
    );
  });
  it('leaves genuine text alone', () => {
    const genuine = { fields: ['SURNAME VOIGT AVOIDS'], bigPrint: ['PASSPORT PASSEPORT FRA'] };
    expect(specimenCheck(genuine).result).toBe('passed');
  });
  // What tesseract read of the stamp ink of the synthetic VOID forgeries (27 November 2026),
  // where the grey page's large print gave `01D`, `OID`, `FOID` or nothing.
  it.each(['Wp VOIP', 'pysvoio', '7 | 4. | voOIiD', 'A. volIiD', 'AVOID | 1', 'gyevolp'])(
    'sees VOID in the stamp ink read as %s',
    (read) => {
      expect(specimenCheck({ fields: [], bigPrint: ['PASSPORT 01D'], stampInk: [read] })).toEqual({
        name: 'specimen',
        result: 'failed',
        detail: 'VOID (stamp ink)',
      });
    },
  );
  it('takes in the stamp ink only what spells VOID through the look-alikes', () => {
    for (const read of ['YpVorP', 'be', '7h | 4 | Ar', 'OID VID', 'VOXD'])
      expect(specimenCheck({ fields: [], stampInk: [read] }).result).toBe('passed');
    expect(saysVoid('VVOIID')).toBe(true);
    expect(saysVoid('V0LD')).toBe(true);
  });
});

describe('the portrait', () => {
  const page = { width: 1250, height: 880 };
  it('is a face of a portrait’s size on the left', () => {
    expect(faceCheck({ box: { x: 60, y: 140, width: 200, height: 260 }, page }).result).toBe(
      'passed',
    );
    expect(faceCheck({ box: { x: 800, y: 140, width: 200, height: 260 }, page }).result).toBe(
      'failed',
    );
    expect(faceCheck({ box: { x: 60, y: 140, width: 40, height: 50 }, page }).result).toBe(
      'failed',
    );
    expect(faceCheck(null).detail).toBe('no face found');
    expect(faceCheck(undefined).result).toBe('not_performed');
  });
});

describe('photocopies and screens', () => {
  it('flags each measure past its limit', () => {
    expect(judgeOriginal({ colour: 60, inkLevel: 0.05, moire: 2 })).toEqual({
      ok: true,
      flags: [],
    });
    expect(judgeOriginal({ colour: 0, inkLevel: 0.5, moire: 0 }).flags).toEqual([
      'no_colour',
      'flat_contrast',
    ]);
    expect(judgeOriginal({ colour: 80, inkLevel: 0.2, moire: 60 }).flags).toEqual(['moire']);
  });
});

describe('documentChecks', () => {
  const face = {
    box: { x: 60, y: 140, width: 200, height: 260 },
    page: { width: 1250, height: 880 },
  };
  const original = [{ side: 'front', verdict: { ok: true, flags: [] } }];
  it('passes a genuine passport, every check performed', () => {
    const checks = documentChecks({
      mode: 'live',
      today: TODAY,
      read: { mrz: passport() },
      viz: PRINTED,
      bigText: ['PASSPORT PASSEPORT FRA'],
      stampText: [],
      face,
      original,
    });
    expect(checks.map((c) => [c.name, c.result])).toEqual([
      ['issuingState', 'passed'],
      ['nationality', 'passed'],
      ['dates', 'passed'],
      ['visualZone', 'passed'],
      ['face', 'passed'],
      ['specimen', 'passed'],
      ['original', 'passed'],
    ]);
  });
  it('fails a specimen-state passport whose printed fields are another person’s', () => {
    const checks = documentChecks({
      mode: 'live',
      today: TODAY,
      read: { mrz: passport({ issuingCountry: 'UTO', nationality: 'UTO' }) },
      viz: PRINTED.replace('DUBOIS', 'MACKENZIE'),
      bigText: [],
      stampText: [],
      face,
      original: [{ side: 'front', verdict: { ok: false, flags: ['moire'] } }],
    });
    expect(checks.filter((c) => c.result === 'failed').map((c) => [c.name, c.detail])).toEqual([
      ['issuingState', 'UTO is the ICAO specimen state (test mode only)'],
      ['nationality', 'UTO is the ICAO specimen state (test mode only)'],
      ['visualZone', 'lastName not printed'],
      ['original', 'front: moire'],
    ]);
  });
  it('refuses a side read of nothing as a screen or a photocopy when it is one, else leaves it', () => {
    const screen = { ok: false, flags: ['moire' as const] };
    const checks = unreadChecks([
      { side: 'front', verdict: { ok: true, flags: [] } },
      { side: 'back', verdict: screen },
    ]);
    expect(checks?.map((c) => [c.name, c.result])).toEqual([
      ['issuingState', 'not_performed'],
      ['nationality', 'not_performed'],
      ['dates', 'not_performed'],
      ['visualZone', 'not_performed'],
      ['face', 'not_performed'],
      ['specimen', 'not_performed'],
      ['original', 'failed'],
    ]);
    expect(checks?.at(-1)?.detail).toBe('back: moire');
    expect(unreadChecks([{ side: 'back', verdict: { ok: true, flags: [] } }])).toBeNull();
    expect(unreadChecks([])).toBeNull();
  });
});
