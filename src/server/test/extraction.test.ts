/**
 * `extractionSchema` (compat.md §2.3) against a real app over a real SQLite file: a test-mode
 * conversation's replies land typed in `report.extractedData`, `null` for a field no reply gives,
 * and a field_condition reads them as the session goes (docs/sdk-inputs.md, "extractionSchema").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => h.close());

const ask = (id: string, question: string, next: string) => ({
  id,
  type: 'conversation',
  prompt: `Say: ${question}`,
  outcomes: [{ id: 'any', condition: '', targetNodeId: next }],
});

const FLOW = [
  { id: 'start', type: 'start', outcome: 'email' },
  ask('email', 'What is your email address?', 'income'),
  ask('income', 'What is your yearly income?', 'born'),
  ask('born', 'When were you born?', 'marketing'),
  ask('marketing', 'Do you agree to receive marketing messages?', 'cond'),
  {
    id: 'cond',
    type: 'field_condition',
    default: 'other',
    rules: [
      {
        left: { source: 'extractedData', field: 'marketing' },
        operator: 'equals',
        right: { type: 'literal', value: true },
        outcome: 'optedIn',
      },
    ],
  },
  { id: 'optedIn', type: 'end' },
  { id: 'other', type: 'end' },
];

const SCHEMA = [
  { fieldName: 'email', type: 'string', description: 'The email address' },
  { fieldName: 'income', type: 'number', description: 'Yearly income' },
  { fieldName: 'birthDate', type: 'date', description: 'Date of birth' },
  { fieldName: 'marketing', type: 'boolean', description: 'Agrees to marketing messages' },
  { fieldName: 'nickname', type: 'string', description: 'Their nickname' },
];

/** A test-mode session of FLOW, opened by the page, answering each question with `replies`. */
async function converse(replies: Record<string, string>) {
  const made = await h.call('POST', '/sessions', {
    key: h.keys.test,
    body: { flow: FLOW, extractionSchema: SCHEMA },
  });
  expect(made.status).toBe(200);
  const id = made.body.session.id as string;
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: made.body.clientSecret.secret },
  });
  const c = (method: string, path: string, b?: unknown) =>
    h.call(method, `/client${path}`, { key: ex.body.token, ...(b ? { body: b } : {}) });
  for (const [node, text] of Object.entries(replies)) {
    expect((await c('GET', `/nodes/${node}/prompt`)).status).toBe(200);
    expect((await c('POST', `/nodes/${node}/reply`, { text })).status).toBe(200);
  }
  return (await h.call('GET', `/sessions/${id}`, { key: h.keys.test })).body.session;
}

describe('extractionSchema', () => {
  it('starts every declared field at null', async () => {
    const made = await h.call('POST', '/sessions', {
      key: h.keys.test,
      body: { flow: FLOW, extractionSchema: SCHEMA },
    });
    const s = await h.call('GET', `/sessions/${made.body.session.id}`, { key: h.keys.test });
    expect(s.body.session.report.extractedData).toEqual({
      email: null,
      income: null,
      birthDate: null,
      marketing: null,
      nickname: null,
    });
  });

  it('reads the replies into the report, typed, null where nothing was said', async () => {
    const s = await converse({
      email: 'Sure, it is ana.ruiz@example.com',
      income: 'About 52000 a year',
      born: 'On the 12th of May... 12.05.1990',
      marketing: 'Yep, go ahead',
    });
    expect(s.status).toBe('complete');
    expect(s.report.extractedData).toEqual({
      email: 'ana.ruiz@example.com',
      income: 52000,
      birthDate: '1990-05-12',
      marketing: true,
      nickname: null,
    });
    expect(s.report.nodeReports.at(-1)).toMatchObject({ nodeId: 'cond', outcome: 'rules[0]' });
  });

  it('lets a field_condition read what was extracted by then', async () => {
    const s = await converse({
      email: 'no email, sorry',
      income: 'nothing',
      born: 'I would rather not say',
      marketing: 'No thanks',
    });
    expect(s.report.extractedData).toEqual({
      email: null,
      income: null,
      birthDate: null,
      marketing: false,
      nickname: null,
    });
    expect(s.report.nodeReports.at(-1)).toMatchObject({ nodeId: 'cond', outcome: 'default' });
  });

  it('keeps what another node wrote when a reply does not give the field', async () => {
    const flow = [
      { id: 'start', type: 'start', outcome: 'mail' },
      { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'ok', canceled: 'end' } },
      ask('ok', 'Shall we go on?', 'end'),
      { id: 'end', type: 'end' },
    ];
    const made = await h.call('POST', '/sessions', {
      key: h.keys.test,
      body: { flow, extractionSchema: SCHEMA.slice(0, 1) },
    });
    const ex = await h.call('POST', '/client/exchange', {
      key: null,
      body: { clientSecret: made.body.clientSecret.secret },
    });
    const c = (path: string, b: unknown) =>
      h.call('POST', `/client${path}`, { key: ex.body.token, body: b });
    const entered = { outcome: 'emailEntered', report: { email: 'ana@example.com' } };
    expect((await c('/nodes/mail/result', entered)).status).toBe(200);
    expect((await c('/nodes/ok/reply', { text: 'yes' })).status).toBe(200);
    const s = await h.call('GET', `/sessions/${made.body.session.id}`, { key: h.keys.test });
    expect(s.body.session.status).toBe('complete');
    expect(s.body.session.report.extractedData).toEqual({ email: 'ana@example.com' });
  });
});
