import { LANGUAGES } from '../../core/api';
import { LocalConditionEvaluator, LocalPromptRenderer } from './local';
import {
  sayText,
  type ConditionEvaluator,
  type ConditionInput,
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
 * The adapters the environment asks for: OpenAI-compatible when `LLM_BASE_URL` is set, local
 * otherwise.
 *
 * @example
 * const { evaluator, renderer } = conversationFromEnv(process.env);
 */
export function conversationFromEnv(env: Record<string, string | undefined>): {
  evaluator: ConditionEvaluator;
  renderer: PromptRenderer;
} {
  const baseUrl = env['LLM_BASE_URL'];
  if (!baseUrl)
    return { evaluator: new LocalConditionEvaluator(), renderer: new LocalPromptRenderer() };
  const options: OpenAiOptions = {
    baseUrl,
    model: env['LLM_MODEL'] ?? 'gpt-4o-mini',
    ...(env['LLM_API_KEY'] ? { apiKey: env['LLM_API_KEY'] } : {}),
  };
  return {
    evaluator: new OpenAiConditionEvaluator(options),
    renderer: new OpenAiPromptRenderer(options),
  };
}
