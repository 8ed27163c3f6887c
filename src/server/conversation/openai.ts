import { LANGUAGES } from '../../core/api';
import { LocalFieldExtractor, coerceValue } from './extract';
import { LocalConditionEvaluator, LocalPromptRenderer } from './local';
import {
  sayText,
  type ConditionEvaluator,
  type ConditionInput,
  type ExtractedData,
  type ExtractionInput,
  type FieldExtractor,
  type PromptInput,
  type PromptRenderer,
} from './types';

export interface OpenAiOptions {
  /** e.g. `https://api.openai.com/v1` or a local server's `/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const langName = (id: string) => LANGUAGES.find((l) => l.id === id)?.title ?? id;

async function chat(o: OpenAiOptions, system: string, user: string): Promise<string> {
  const doFetch = o.fetch ?? fetch;
  const res = await doFetch(`${o.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: o.model,
      temperature: 0,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    }),
    signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
  });
  if (!res.ok) throw new Error(`LLM answered HTTP ${res.status}`);
  const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
  const text = body.choices?.[0]?.message?.content;
  if (typeof text !== 'string') throw new Error('LLM answer has no message content');
  return text.trim();
}

/**
 * Judges conditions with an OpenAI-compatible chat model (`LLM_BASE_URL`, `LLM_MODEL`,
 * `LLM_API_KEY`). Empty conditions match without asking; when the model cannot be reached or
 * answers nonsense, the local matcher decides, so a session never stalls on the network.
 *
 * @example
 * const evaluator = new OpenAiConditionEvaluator({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'local' });
 */
export class OpenAiConditionEvaluator implements ConditionEvaluator {
  private readonly fallback = new LocalConditionEvaluator();
  constructor(private readonly options: OpenAiOptions) {}

  async choose(input: ConditionInput): Promise<number | null> {
    const firstEmpty = input.conditions.findIndex((c) => c.trim() === '');
    const asked = firstEmpty >= 0 ? input.conditions.slice(0, firstEmpty) : input.conditions;
    if (asked.length === 0) return firstEmpty >= 0 ? firstEmpty : null;
    const list = asked.map((c, i) => `${i}: ${c}`).join('\n');
    try {
      const answer = await chat(
        this.options,
        'You judge which condition a user reply satisfies in an identity-verification conversation. ' +
          'Conditions are checked in order and the first one that holds wins. ' +
          'Answer with the number of that condition only, or "none".',
        `Language: ${langName(input.lang)}\n${input.prompt ? `The avatar asked: ${input.prompt}\n` : ''}` +
          `Conditions:\n${list}\nUser reply: ${input.reply}`,
      );
      const m = /-?\d+/.exec(answer);
      if (m && Number(m[0]) >= 0 && Number(m[0]) < asked.length) return Number(m[0]);
      if (/none/i.test(answer)) return firstEmpty >= 0 ? firstEmpty : null;
      return this.fallback.choose(input);
    } catch {
      return this.fallback.choose(input);
    }
  }
}

/**
 * Phrases descriptive prompts with an OpenAI-compatible chat model in the session language;
 * `Say:` prompts are never sent to it. Falls back to the local renderer when the model fails.
 *
 * @example
 * const renderer = new OpenAiPromptRenderer({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'local' });
 */
export class OpenAiPromptRenderer implements PromptRenderer {
  private readonly fallback = new LocalPromptRenderer();
  constructor(private readonly options: OpenAiOptions) {}

  async render(input: PromptInput): Promise<string> {
    if (sayText(input.prompt) !== null) return this.fallback.render(input);
    try {
      return await chat(
        this.options,
        'You are a friendly avatar guiding a user through identity verification. ' +
          'Turn the instruction you get into the one or two sentences you say to the user. ' +
          'Reply with those words only.',
        `Language: ${langName(input.lang)}\nInstruction: ${input.prompt}`,
      );
    } catch {
      return this.fallback.render(input);
    }
  }
}

/**
 * Reads `extractionSchema` fields with an OpenAI-compatible chat model: it gets the fields and
 * the conversation and answers one JSON object; each value is then made to its field's type by
 * the local rules (`coerceValue`), so a loose answer ("42 years", "yep") still lands typed. When
 * the model cannot be reached or answers no JSON object, the local extractor decides.
 *
 * @example
 * const extractor = new OpenAiFieldExtractor({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'local' });
 */
export class OpenAiFieldExtractor implements FieldExtractor {
  private readonly fallback = new LocalFieldExtractor();
  constructor(private readonly options: OpenAiOptions) {}

  async extract(input: ExtractionInput): Promise<ExtractedData> {
    if (input.turns.length === 0) return this.fallback.extract(input);
    const fields = input.fields.map((f) => ({
      fieldName: f.fieldName,
      type: f.type,
      description: f.description,
      ...(f.enum ? { enum: f.enum } : {}),
    }));
    const talk = input.turns.map((t) => `Guide: ${t.question}\nUser: ${t.reply}`).join('\n');
    try {
      const answer = await chat(
        this.options,
        'You extract data from what a user said in an identity-verification conversation. ' +
          'Answer with one JSON object only: a key per fieldName, its value of the field type ' +
          '(a date as YYYY-MM-DD; for an enum, one of its values), or null when the user did ' +
          'not say it. Never guess.',
        `Language: ${langName(input.lang)}\nFields: ${JSON.stringify(fields)}\nConversation:\n${talk}`,
      );
      const json = /\{[\s\S]*\}/.exec(answer)?.[0];
      const parsed: unknown = json ? JSON.parse(json) : null;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return this.fallback.extract(input);
      }
      const got = parsed as Record<string, unknown>;
      return Object.fromEntries(
        input.fields.map((f) => [f.fieldName, coerceValue(f, got[f.fieldName], input.lang)]),
      );
    } catch {
      return this.fallback.extract(input);
    }
  }
}

/**
 * The adapters the environment asks for: OpenAI-compatible when `LLM_BASE_URL` is set, local
 * otherwise.
 *
 * @example
 * const { evaluator, renderer } = conversationFromEnv(process.env);
 */
export function conversationFromEnv(env: Record<string, string | undefined>): {
  evaluator: ConditionEvaluator;
  renderer: PromptRenderer;
  extractor: FieldExtractor;
} {
  const baseUrl = env['LLM_BASE_URL'];
  if (!baseUrl)
    return {
      evaluator: new LocalConditionEvaluator(),
      renderer: new LocalPromptRenderer(),
      extractor: new LocalFieldExtractor(),
    };
  const options: OpenAiOptions = {
    baseUrl,
    model: env['LLM_MODEL'] ?? 'gpt-4o-mini',
    ...(env['LLM_API_KEY'] ? { apiKey: env['LLM_API_KEY'] } : {}),
  };
  return {
    evaluator: new OpenAiConditionEvaluator(options),
    renderer: new OpenAiPromptRenderer(options),
    extractor: new OpenAiFieldExtractor(options),
  };
}
