/**
 * Writes a licence's barcode text as a jurisdiction's card printer would, for the test renderer
 * and for tests (compose, then parse, gives the fields back): the element set and date form of
 * the standard's version (1: `DAA` full name and `CCYYMMDD`; 2–3: `DCS`/`DCT`; 4–10:
 * `DCS`/`DAC`/`DAD`; from 2, US dates `MMDDCCYY`, Canadian `CCYYMMDD`).
 */

export interface AamvaInput {
  version: number;
  iin: string;
  subfile: 'DL' | 'ID';
  country: 'USA' | 'CAN';
  lastName: string;
  firstName: string;
  middleName: string;
  number: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  issueDate: string;
  expiryDate: string;
  sex: 'M' | 'F' | 'X';
  licenceClass: string;
  street: string;
  city: string;
  jurisdiction: string;
  /** As printed in the barcode (`958180000`, `K1A0B1`). */
  postalCode: string;
}

function date(iso: string, form: 'ymd' | 'mdy'): string {
  const [y, m, d] = iso.split('-') as [string, string, string];
  return form === 'ymd' ? `${y}${m}${d}` : `${m}${d}${y}`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
const pad4 = (n: number) => String(n).padStart(4, '0');

/**
 * The elements of the licence's subfile for its version, in a card printer's order.
 *
 * @example
 * aamvaElements(input).find(([id]) => id === 'DAQ'); // ['DAQ', 'D1234562']
 */
export function aamvaElements(a: AamvaInput): [string, string][] {
  const form = a.version === 1 || a.country === 'CAN' ? 'ymd' : 'mdy';
  const sex = a.version === 1 ? a.sex.replace('X', 'M') : { M: '1', F: '2', X: '9' }[a.sex];
  const names: [string, string][] =
    a.version === 1
      ? [['DAA', [a.lastName, a.firstName, a.middleName].filter(Boolean).join(',')]]
      : a.version <= 3
        ? [
            ['DCS', a.lastName],
            ['DCT', [a.firstName, a.middleName].filter(Boolean).join(',')],
          ]
        : [
            ['DCS', a.lastName],
            ['DAC', a.firstName],
            ['DAD', a.middleName || 'NONE'],
          ];
  const cls: [string, string][] =
    a.version === 1
      ? [
          ['DAR', a.licenceClass],
          ['DAS', 'NONE'],
          ['DAT', 'NONE'],
        ]
      : [
          ['DCA', a.licenceClass],
          ['DCB', 'NONE'],
          ['DCD', 'NONE'],
        ];
  const out: [string, string][] = [
    ['DAQ', a.number],
    ...cls,
    ['DBA', date(a.expiryDate, form)],
    ...names,
    ['DBD', date(a.issueDate, form)],
    ['DBB', date(a.dateOfBirth, form)],
    ['DBC', sex],
    ['DAY', 'BRO'],
    ['DAU', a.country === 'CAN' ? '178 cm' : '070 in'],
    ['DAG', a.street],
    ['DAI', a.city],
    ['DAJ', a.jurisdiction],
    ['DAK', a.postalCode.padEnd(11, ' ')],
  ];
  if (a.version >= 2) {
    out.push(['DCF', `${a.number}${a.issueDate.replace(/-/g, '')}`], ['DCG', a.country]);
  }
  if (a.version >= 4) out.push(['DDE', 'N'], ['DDF', 'N'], ['DDG', 'N']);
  if (a.version >= 9) out.push(['DDA', 'F'], ['DDB', date('2016-01-29', form)]);
  return out;
}

/**
 * The barcode text: header, one subfile designator, the subfile.
 *
 * @example
 * composeAamva({ version: 10, iin: '636014', subfile: 'DL', country: 'USA', … });
 * // '@\n\x1e\rANSI 636014100101DL00310264DLDAQ…'
 */
export function composeAamva(a: AamvaInput): string {
  const subfile = `${a.subfile}${aamvaElements(a)
    .map(([id, v]) => `${id}${v}`)
    .join('\n')}\r`;
  const head = `@\n\x1e\rANSI ${a.iin}${pad2(a.version)}${a.version >= 2 ? '00' : ''}01`;
  const offset = head.length + 10;
  return `${head}${a.subfile}${pad4(offset)}${pad4(subfile.length)}${subfile}`;
}
