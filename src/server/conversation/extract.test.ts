import { describe, expect, it } from 'vitest';
import type { ExtractionField } from '../../core/api';
import {
  booleanIn,
  coerceValue,
  dateIn,
  emailIn,
  enumValueIn,
  extractAll,
  nameIn,
  numberOf,
  stringKind,
} from './extract';
import { turnsOf } from './transcript';

describe('emailIn', () => {
  it.each([
    ['sure, it is Ana.Ruiz@example.com.', 'Ana.Ruiz@example.com'],
    ['mi correo: jose+idv@correo.es', 'jose+idv@correo.es'],
    ['ana at example dot com', null],
    ['@example.com', null],
  ])('%s → %s', (reply, want) => expect(emailIn(reply)).toBe(want));
});

describe('dateIn', () => {
  it.each([
    ['1990-05-12', 'en', '1990-05-12'],
    ['born 12.05.1990', 'de', '1990-05-12'],
    ['12/05/1990', 'fr', '1990-05-12'],
    ['12/05/1990', 'en', '1990-12-05'],
    ['25/05/1990', 'en', '1990-05-25'],
    ['I was born on May 12th, 1990', 'en', '1990-05-12'],
    ['12 de mayo de 1990', 'es', '1990-05-12'],
    ['le 3 février 1985', 'fr', '1985-02-03'],
    ['am 1. März 1970', 'de', '1970-03-01'],
    ['il 7 agosto 2001', 'it', '2001-08-07'],
    ['9 de março de 1999', 'pt', '1999-03-09'],
    ['31.02.1990', 'de', null],
    ['in May', 'en', null],
    ['42', 'en', null],
  ])('%s (%s) → %s', (reply, lang, want) => expect(dateIn(reply, lang)).toBe(want));
});

describe('numberOf', () => {
  it.each([
    ['I am 42 years old', 'en', 42],
    ['about 52000.50', 'en', 52000.5],
    ['dix-huit', 'fr', 18],
    ['born 12.05.1990, I earn 52000', 'en', 52000],
    ['ana2@example.com', 'en', null],
    ['1990-05-12', 'en', null],
    ['no idea', 'en', null],
  ])('%s (%s) → %s', (reply, lang, want) => expect(numberOf(reply, lang)).toBe(want));
});

describe('booleanIn', () => {
  it.each([
    ['Yes', true],
    ['yep', true],
    ['Sí, claro', true],
    ['oui bien sûr', true],
    ['Ja, genau', true],
    ['certo', true],
    ['sim', true],
    ['nope', false],
    ['Non, merci', false],
    ['nein', false],
    ['não', false],
    ['I refuse', false],
    ['maybe later', null],
  ])('%s → %s', (reply, want) => expect(booleanIn(reply)).toBe(want));
});

describe('nameIn', () => {
  it.each([
    ['Hi, my name is Ana Ruiz.', 'Ana Ruiz'],
    ["je m'appelle Jean Dupont", 'Jean Dupont'],
    ['Me llamo José García López', 'José García López'],
    ['Ich heiße Jürgen', 'Jürgen'],
    ['Mi chiamo Giulia Rossi', 'Giulia Rossi'],
    ['Jean Dupont', 'Jean Dupont'],
    ['yes', null],
    ['Yes', null],
    ['I do not want to say', null],
  ])('%s → %s', (reply, want) => expect(nameIn(reply)).toBe(want));
});

describe('enumValueIn', () => {
  it.each([
    ['Yep!', ['Yes', 'No'], 'Yes'],
    ['nah', ['Yes', 'No'], 'No'],
    ['claro', ['Sí', 'No'], 'Sí'],
    ['the PREMIUM one', ['basic', 'Premium'], 'Premium'],
    ['Telefono o email', ['email', 'teléfono'], 'teléfono'],
    ['yes', ['basic', 'Premium'], null],
    ['whatever', ['Yes', 'No'], null],
  ])('%s in %j → %s', (reply, values, want) => expect(enumValueIn(reply, values)).toBe(want));
});

describe('stringKind', () => {
  const f = (fieldName: string, description: string, e?: string[]): ExtractionField => ({
    fieldName,
    type: 'string',
    description,
    ...(e ? { enum: e } : {}),
  });
  it.each([
    [f('plan', 'Plan', ['a']), 'enum'],
    [f('contact', 'The e-mail address'), 'email'],
    [f('fullName', 'Who the user is'), 'name'],
    [f('reason', 'Why they apply'), 'text'],
  ])('%j → %s', (field, want) => expect(stringKind(field)).toBe(want));
});

describe('extractAll', () => {
  const schema: ExtractionField[] = [
    { fieldName: 'email', type: 'string', description: 'The email address' },
    { fieldName: 'income', type: 'number', description: 'Yearly income' },
    { fieldName: 'birthDate', type: 'date', description: 'Date of birth' },
    { fieldName: 'marketing', type: 'boolean', description: 'Agrees to marketing emails' },
    { fieldName: 'reason', type: 'string', description: 'Why they open an account' },
    { fieldName: 'nickname', type: 'string', description: 'Their nickname' },
  ];
  const turns = [
    { question: 'Are you ready?', reply: 'no, wait' },
    { question: 'What is your email address?', reply: 'ana@example.com' },
    { question: 'What is your yearly income?', reply: 'around 52000' },
    { question: 'When were you born?', reply: 'on 12.05.1990' },
    { question: 'Do you agree to marketing messages?', reply: 'yes' },
    { question: 'Why do you open an account?', reply: 'To save money' },
  ];

  it('gives each field from the reply to its question, typed; null when none gives it', () => {
    expect(extractAll(schema, turns, 'en')).toEqual({
      email: 'ana@example.com',
      income: 52000,
      birthDate: '1990-05-12',
      marketing: true,
      reason: 'To save money',
      nickname: null,
    });
  });

  it('takes the latest of equally relevant replies; nothing said gives nulls', () => {
    const again = [...turns, { question: 'Anything else?', reply: 'my email is b@example.org' }];
    expect(extractAll(schema, again, 'en')['email']).toBe('ana@example.com');
    expect(
      extractAll(
        schema.slice(0, 1),
        [
          { question: 'x', reply: 'a@b.io' },
          { question: 'y', reply: 'c@d.io' },
        ],
        'en',
      ),
    ).toEqual({ email: 'c@d.io' });
    expect(extractAll(schema, [], 'en')).toEqual(
      Object.fromEntries(schema.map((f) => [f.fieldName, null])),
    );
  });
});

describe('coerceValue (what an LLM answered, made to the field type)', () => {
  const f = (type: ExtractionField['type'], e?: string[]): ExtractionField => ({
    fieldName: 'x',
    type,
    description: 'x',
    ...(e ? { enum: e } : {}),
  });
  it.each([
    [f('number'), 42, 42],
    [f('number'), '42 years', 42],
    [f('number'), 'unknown', null],
    [f('boolean'), false, false],
    [f('boolean'), 'yep', true],
    [f('date'), '12.05.1990', '1990-05-12'],
    [f('date'), '1990-05-12T10:00:00Z', '1990-05-12'],
    [f('date'), 'soon', null],
    [f('string', ['Basic', 'Premium']), 'premium', 'Premium'],
    [f('string', ['Basic', 'Premium']), 'gold', null],
    [f('string'), ' ana ruiz ', 'ana ruiz'],
    [f('string'), { a: 1 }, null],
    [f('string'), null, null],
    [f('string'), '', null],
  ])('%j ← %j → %j', (field, raw, want) => expect(coerceValue(field, raw, 'en')).toBe(want));
});

describe('turnsOf', () => {
  it('pairs each reply with what the guide said since the previous one', () => {
    expect(
      turnsOf([
        { text: 'Hello.', isAvatar: true },
        { text: 'Your email?', isAvatar: true },
        { text: 'a@b.io', isAvatar: false },
        { text: 'and?', isAvatar: false },
        { text: 'Age?', isAvatar: true },
        { text: '42', isAvatar: false },
      ]),
    ).toEqual([
      { question: 'Hello. Your email?', reply: 'a@b.io' },
      { question: '', reply: 'and?' },
      { question: 'Age?', reply: '42' },
    ]);
  });
});
