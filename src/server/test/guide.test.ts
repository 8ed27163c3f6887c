import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PromptRenderer } from '../conversation/types';
import { DEMO_FLOW } from '../demo';
import { startHarness, type Harness } from './harness';

// What the guide says without an LLM: never an instruction meant for it; a question answered and
// the prompt asked again before any catch-all; a user who declines the demo is not `complete`.

const flowWith = (prompt: string, outcomes?: unknown[]) => [
  { id: 'start', type: 'start', outcome: 'ask' },
  {
    id: 'ask',
    type: 'conversation',
    prompt,
    outcomes: outcomes ?? [
      { id: 'yes', condition: 'The user agrees', targetNodeId: 'done' },
      { id: 'other', condition: '', targetNodeId: 'done' },
    ],
  },
  { id: 'done', type: 'end' },
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => {
  await h.close();
});

async function open(body: Record<string, unknown>) {
  const made = await h.call('POST', '/sessions', { key: h.keys.live, body });
  expect(made.status).toBe(200);
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: made.body.clientSecret.secret },
  });
  const token = ex.body.token as string;
  const c = (method: string, path: string, b?: unknown) =>
    h.call(method, `/client${path}`, { key: token, ...(b !== undefined ? { body: b } : {}) });
  return { id: made.body.session.id as string, c };
}

describe('descriptive prompts at session creation', () => {
  it('refuses one the guide cannot say, naming the node', async () => {
    const r = await h.call('POST', '/sessions', {
      key: h.keys.live,
      body: { flow: flowWith("Verify the user's identity and be friendly") },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('validation_error');
    expect(r.body.error.details).toEqual([
      {
        path: 'flow[1].prompt',
        nodeId: 'ask',
        message: expect.stringMatching(
          /^the guide cannot say this descriptive prompt without an LLM/,
        ),
      },
    ]);
  });

  it('takes one it can say, and a Say: prompt whatever it holds', async () => {
    for (const prompt of ['Ask the user whether they are ready', 'Say: Verify the user']) {
      const r = await h.call('POST', '/sessions', {
        key: h.keys.live,
        body: { flow: flowWith(prompt) },
      });
      expect(r.status).toBe(200);
    }
  });

  it('takes anything when an LLM says the prompts', async () => {
    const llm: PromptRenderer = { render: async ({ prompt }) => prompt };
    const withLlm = await startHarness({ rateLimits: false, renderer: llm });
    try {
      const r = await withLlm.call('POST', '/sessions', {
        key: withLlm.keys.live,
        body: { flow: flowWith("Verify the user's identity and be friendly") },
      });
      expect(r.status).toBe(200);
    } finally {
      await withLlm.close();
    }
  });

  it('says a descriptive prompt in the language it is written in', async () => {
    const { c } = await open({
      flow: flowWith('Pregunta al usuario si abre una cuenta personal o de empresa.'),
      langs: ['es'],
    });
    const r = await c('GET', '/nodes/ask/prompt');
    expect(r.body.text).toBe('¿Abres una cuenta personal o de empresa?');
  });
});

describe('a question or an unclear reply', () => {
  it('is answered and the question asked again, twice, before the catch-all', async () => {
    const { id, c } = await open({ flow: flowWith('Say: Shall we start?'), langs: ['de'] });
    await c('POST', '/lang', { lang: 'de' });
    await c('GET', '/nodes/ask/prompt');
    const first = await c('POST', '/nodes/ask/reply', { text: 'Hm, wozu ist das gut?' });
    expect(first.body).toMatchObject({
      outcome: null,
      answer:
        'Ich frage, damit wir bestätigen können, dass wirklich Sie es sind: Das schützt Ihr Konto.',
      again: 'Shall we start?',
    });
    expect(first.body.position.nodeId).toBe('ask');
    const second = await c('POST', '/nodes/ask/reply', { text: 'Wie lange dauert das?' });
    expect(second.body).toMatchObject({ outcome: null, answer: 'Es dauert nur wenige Minuten.' });
    // The limit is reached: the catch-all takes the next one.
    const third = await c('POST', '/nodes/ask/reply', { text: 'Was passiert mit meinen Daten?' });
    expect(third.body.outcome).toBe('other');
    expect(third.body).not.toHaveProperty('answer');

    const s = (await h.call('GET', `/sessions/${id}`, { key: h.keys.live })).body.session;
    expect(s.report.transcript.map((t: { text: string }) => t.text)).toEqual([
      'Shall we start?',
      'Hm, wozu ist das gut?',
      'Ich frage, damit wir bestätigen können, dass wirklich Sie es sind: Das schützt Ihr Konto.',
      'Shall we start?',
      'Wie lange dauert das?',
      'Es dauert nur wenige Minuten.',
      'Shall we start?',
      'Was passiert mit meinen Daten?',
    ]);
  });

  it('a clear no goes to the catch-all at once; a clear yes to its condition', async () => {
    const no = await open({ flow: flowWith('Say: Shall we start?') });
    expect((await no.c('POST', '/nodes/ask/reply', { text: 'No, thanks' })).body.outcome).toBe(
      'other',
    );
    const yes = await open({ flow: flowWith('Say: Shall we start?') });
    expect((await yes.c('POST', '/nodes/ask/reply', { text: 'Yes, why not?' })).body.outcome).toBe(
      'yes',
    );
  });
});

describe('the demo flow', () => {
  it('answers a question, and a user who declines ends incomplete and not verified', async () => {
    const { id, c } = await open({ flow: DEMO_FLOW });
    await c('POST', '/nodes/permissions/result', { outcome: 'permissionsGranted' });
    const asked = await c('POST', '/nodes/hello/reply', { text: 'hmm, what is this for?' });
    expect(asked.body).toMatchObject({
      outcome: null,
      again: expect.stringContaining('Shall we begin?'),
    });
    const no = await c('POST', '/nodes/hello/reply', { text: "No, I don't want to" });
    expect(no.body.position).toMatchObject({ status: 'incomplete', endReason: 'stopped' });
    const s = (await h.call('GET', `/sessions/${id}`, { key: h.keys.live })).body.session;
    expect(s.status).toBe('incomplete');
    expect(s.report.isVerified).toBe(false);
  });
});
