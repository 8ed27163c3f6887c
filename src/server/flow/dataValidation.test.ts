import { describe, expect, it } from 'vitest';
import { ageAt, parseDate, pickCheckOutcome, runValidation, sameName } from './dataValidation';

const now = Date.UTC(2025, 9, 1);
const data = {
  providedData: { dob: '2007-10-02', name: 'José Álvarez Ruiz', email: 'a@b.co' },
  extractedData: { firstLast: 'JOSE ALVAREZ', expiry: '2025-10-01', old: '01.01.1990' },
  metadata: { plan: 'Gold' },
};
const check = (field: string, action: string, value?: string | number) =>
  runValidation({ field, action, ...(value !== undefined ? { value } : {}) }, data, now);

describe('data_validation checks', () => {
  it('exists, equals, notEquals, contains, matches', () => {
    expect(check('providedData.email', 'exists')).toBe('passed');
    expect(check('providedData.phone', 'exists')).toBe('failed');
    expect(check('metadata.plan', 'equals', 'gold')).toBe('passed');
    expect(check('metadata.plan', 'notEquals', 'gold')).toBe('failed');
    expect(check('metadata.missing', 'notEquals', 'gold')).toBe('passed');
    expect(check('providedData.email', 'contains', '@B.')).toBe('passed');
    expect(check('providedData.email', 'matches', '^[a-z]@')).toBe('passed');
    expect(check('providedData.email', 'matches', '(')).toBe('failed');
  });

  it('matches runs RE2: a crafted value is answered at once, RE2 syntax is read', () => {
    const email = String.raw`^([a-zA-Z0-9_\.\-])+\@(([a-zA-Z0-9\-])+\.)+([a-zA-Z0-9]{2,4})+$`;
    const crafted = { ...data, providedData: { email: `a@a.${'a'.repeat(52)}!` } };
    const spec = { field: 'providedData.email', action: 'matches', value: email };
    expect(runValidation(spec, crafted, now)).toBe('failed');
    expect(runValidation(spec, data, now)).toBe('passed');
    expect(check('metadata.plan', 'matches', '(?i)^gold$')).toBe('passed');
    // A pattern of a session stored before patterns were RE2 fails rather than running unbounded.
    expect(check('providedData.email', 'matches', '^(?=a)')).toBe('failed');
  });

  it('ages and expiry by calendar day', () => {
    expect(check('providedData.dob', 'minAge', 18)).toBe('failed');
    expect(check('providedData.dob', 'maxAge', '17')).toBe('passed');
    expect(check('extractedData.old', 'minAge', 35)).toBe('passed');
    expect(check('extractedData.expiry', 'notExpired')).toBe('passed');
    expect(
      runValidation(
        { field: 'extractedData.expiry', action: 'notExpired' },
        data,
        now + 86_400_000,
      ),
    ).toBe('failed');
    expect(ageAt(Date.UTC(2000, 5, 15), Date.UTC(2018, 5, 15))).toBe(18);
    expect(parseDate('2024-02-30')).toBeNull();
    expect(parseDate('19900401')).toBe(Date.UTC(1990, 3, 1));
  });

  it('isEmail, isPhone, isNumber, isDate check the form of a value, numbers and booleans read as text', () => {
    const d = {
      providedData: {
        email: ' a@b.co ',
        bad: 'a@b',
        phone: '+33 6 12-34-56-78',
        age: 42,
        vip: true,
      },
      extractedData: { n: '-3.5', dob: '31.12.1990', feb: '2023-02-30' },
      metadata: { seats: 5, nested: { a: 1 } },
    };
    const run = (field: string, action: string) => runValidation({ field, action }, d, now);
    expect(run('providedData.email', 'isEmail')).toBe('passed');
    expect(run('providedData.bad', 'isEmail')).toBe('failed');
    expect(run('providedData.missing', 'isEmail')).toBe('failed');
    expect(run('providedData.phone', 'isPhone')).toBe('passed');
    expect(run('providedData.email', 'isPhone')).toBe('failed');
    expect(run('extractedData.n', 'isNumber')).toBe('passed');
    expect(run('providedData.age', 'isNumber')).toBe('passed');
    expect(run('providedData.email', 'isNumber')).toBe('failed');
    expect(run('extractedData.dob', 'isDate')).toBe('passed');
    expect(run('extractedData.feb', 'isDate')).toBe('failed');
    expect(run('providedData.vip', 'equals')).toBe('failed');
    expect(
      runValidation({ field: 'providedData.vip', action: 'equals', value: 'true' }, d, now),
    ).toBe('passed');
    expect(run('metadata.seats', 'isNumber')).toBe('passed');
    expect(run('metadata.nested', 'exists')).toBe('failed');
  });

  it('sameAs matches names fuzzily', () => {
    expect(check('extractedData.firstLast', 'sameAs', 'providedData.name')).toBe('passed');
    expect(sameName('Anna Smith', 'John Smith')).toBe(false);
    expect(sameName('Jonathan Smith', 'Jonathon Smith')).toBe(true);
    expect(sameName('', 'x')).toBe(false);
  });

  it('picks the first outcome whose condition is the result or empty', () => {
    const outcomes = [
      { id: 'ok', condition: 'passed' },
      { id: 'else', condition: '' },
    ];
    expect(pickCheckOutcome(outcomes, 'passed')).toBe('ok');
    expect(pickCheckOutcome(outcomes, 'failed')).toBe('else');
    expect(pickCheckOutcome([{ id: 'ok', condition: 'passed' }], 'failed')).toBeNull();
  });
});
