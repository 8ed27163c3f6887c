import { describe, expect, it } from 'vitest';
import { composeMrz, parseMrz, type MrzResult } from '../../core/mrz';
import { nameByViz } from './name-by-viz';

const TODAY = Date.UTC(2026, 0, 1);

function passport(lastName: string, firstName: string): MrzResult {
  const lines = composeMrz({
    format: 'TD3',
    documentCode: 'P',
    issuingCountry: 'GBR',
    lastName,
    firstName,
    documentNumber: '64T983002',
    nationality: 'GBR',
    dateOfBirth: '501113',
    sex: '<',
    expiryDate: '341107',
    optional1: '051J0E9',
  });
  return parseMrz(lines, TODAY)!;
}

const KAREL = passport('DUBOIS', 'KAREL');
const XAREL = passport('DUBOIS', 'XAREL');
const FIELDS = 'Surname / Nom\nDUBOIS\nGiven names / Prénoms\nKAREL\nNationality\nGBR';

describe('nameByViz', () => {
  it('takes the one name whose every part is printed', () => {
    expect(nameByViz([XAREL, KAREL], FIELDS)).toBe(KAREL);
  });

  it('takes none when no name or more than one is printed', () => {
    expect(nameByViz([XAREL, KAREL], 'Surname DUBOIS Given names KARFL')).toBeNull();
    expect(nameByViz([XAREL, KAREL], `${FIELDS}\nXAREL`)).toBeNull();
    expect(nameByViz([XAREL, KAREL], null)).toBeNull();
  });

  it('wants a short name part as a whole word, not inside another', () => {
    const li = passport('LI', 'WEI');
    const lt = passport('LT', 'WEI');
    expect(nameByViz([li, lt], 'SURNAME LI GIVEN NAMES WEI VALID UNTIL')).toBe(li);
    // `LT` only inside another word, `LI` misread: not settled.
    expect(nameByViz([li, lt], 'SURNAME L1 GIVEN NAMES WEI UNTILT')).toBeNull();
  });
});
