import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractionField } from '../../core/api';
import { LocalFieldExtractor } from './extract';
import { LocalConditionEvaluator } from './local';
import {
  OpenAiConditionEvaluator,
  OpenAiFieldExtractor,
  OpenAiPromptRenderer,
  conversationFromEnv,
} from './openai';

// A loopback server speaking the chat-completions format, answering what each test sets.
let answer: { status: number; content: string } = { status: 200, content: '' };
const asked: { model: string; messages: { role: string; content: string }[] }[] = [];
let server: Server;
let baseUrl = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      asked.push(JSON.parse(body));
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer.content } }] }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});
afterAll(() => server.close());

describe('the OpenAI-compatible adapters', () => {
  it('asks the model for the first matching condition and reads its number', async () => {
    const e = new OpenAiConditionEvaluator({ baseUrl, model: 'm1', apiKey: 'k' });
    answer = { status: 200, content: '1' };
    expect(
      await e.choose({
        conditions: ['wants a refund', 'asks about delivery'],
        reply: 'où est mon colis ?',
        lang: 'fr',
      }),
    ).toBe(1);
    const last = asked.at(-1)!;
    expect(last.model).toBe('m1');
    expect(last.messages[1]!.content).toContain('0: wants a refund');
    expect(last.messages[1]!.content).toContain('Language: Français');
    answer = { status: 200, content: 'none' };
    expect(await e.choose({ conditions: ['a', ''], reply: 'x', lang: 'en' })).toBe(1);
  });

  it('does not ask when an empty condition comes first, and falls back to the local matcher on failure', async () => {
    const e = new OpenAiConditionEvaluator({ baseUrl, model: 'm' });
    const before = asked.length;
    expect(await e.choose({ conditions: ['', 'x'], reply: 'y', lang: 'en' })).toBe(0);
    expect(asked.length).toBe(before);
    answer = { status: 500, content: '' };
    const input = { conditions: ['The user says no', 'The user agrees'], reply: 'ja', lang: 'de' };
    expect(await e.choose(input)).toBe(await new LocalConditionEvaluator().choose(input));
  });

  it('phrases descriptive prompts, never Say: prompts', async () => {
    const r = new OpenAiPromptRenderer({ baseUrl, model: 'm' });
    answer = { status: 200, content: 'Bonjour ! Prêt à commencer ?' };
    expect(await r.render({ prompt: 'Greet the user and ask if they are ready', lang: 'fr' })).toBe(
      'Bonjour ! Prêt à commencer ?',
    );
    const before = asked.length;
    expect(await r.render({ prompt: 'Say: Hello exactly', lang: 'fr' })).toBe('Hello exactly');
    expect(asked.length).toBe(before);
    answer = { status: 503, content: '' };
    // When the model fails, the local renderer says it: never the instruction as written.
    expect(await r.render({ prompt: 'Greet the user', lang: 'en' })).toBe('Hello!');
  });

  it('extracts fields as one JSON object, typed by the local rules; falls back to them on failure', async () => {
    const x = new OpenAiFieldExtractor({ baseUrl, model: 'm' });
    const fields: ExtractionField[] = [
      { fieldName: 'age', type: 'number', description: 'Age' },
      { fieldName: 'vip', type: 'boolean', description: 'Wants VIP' },
      { fieldName: 'born', type: 'date', description: 'Birth date' },
      { fieldName: 'plan', type: 'string', description: 'Plan', enum: ['Basic', 'Premium'] },
      { fieldName: 'city', type: 'string', description: 'City' },
    ];
    const turns = [{ question: 'How old are you?', reply: 'forty-two, VIP yes, premium' }];
    answer = {
      status: 200,
      content: 'Here: {"age": "42 years", "vip": "yep", "born": "12.05.1990", "plan": "premium"}',
    };
    expect(await x.extract({ fields, turns, lang: 'en' })).toEqual({
      age: 42,
      vip: true,
      born: '1990-05-12',
      plan: 'Premium',
      city: null,
    });
    expect(asked.at(-1)!.messages[1]!.content).toContain('User: forty-two, VIP yes, premium');
    answer = { status: 500, content: '' };
    const input = { fields, turns: [{ question: 'Plan?', reply: 'Premium' }], lang: 'en' };
    expect(await x.extract(input)).toEqual(await new LocalFieldExtractor().extract(input));
    answer = { status: 200, content: 'I cannot tell' };
    expect(await x.extract(input)).toEqual(await new LocalFieldExtractor().extract(input));
  });

  it('is chosen by LLM_BASE_URL', () => {
    expect(conversationFromEnv({}).extractor).toBeInstanceOf(LocalFieldExtractor);
    expect(conversationFromEnv({ LLM_BASE_URL: baseUrl }).extractor).toBeInstanceOf(
      OpenAiFieldExtractor,
    );
    expect(conversationFromEnv({}).evaluator).toBeInstanceOf(LocalConditionEvaluator);
    expect(conversationFromEnv({ LLM_BASE_URL: baseUrl }).evaluator).toBeInstanceOf(
      OpenAiConditionEvaluator,
    );
  });
});
