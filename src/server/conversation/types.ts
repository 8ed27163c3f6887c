import type { ExtractionField } from '../../core/api';

/** What a condition is judged against. */
export interface ConditionInput {
  /** The conditions of the node's outcomes, in order. */
  conditions: string[];
  /** What the user said (typed or recognised speech). */
  reply: string;
  /** The session's language (ISO 639-1). */
  lang: string;
  /** The node's prompt, for adapters that judge in context. */
  prompt?: string;
}

/**
 * Picks a conversation node's outcome: conditions are judged in order, the first match wins
 * (spec: "evaluated in order by an AI"). `null` when none matches.
 */
export interface ConditionEvaluator {
  choose(input: ConditionInput): Promise<number | null>;
}

export interface PromptInput {
  prompt: string;
  lang: string;
}

/**
 * Turns a node prompt into what the avatar says: `Say:` prompts word for word, descriptive ones
 * phrased in the session language.
 */
export interface PromptRenderer {
  render(input: PromptInput): Promise<string>;
  /**
   * Why this renderer cannot say a prompt, checked when a session is made; null (or no method:
   * an LLM says anything) when it can.
   */
  problemWith?(prompt: string): string | null;
}

/**
 * The exact words of a `Say:` prompt, or null for a descriptive prompt.
 *
 * @example
 * sayText('Say: Hello there'); // 'Hello there'
 * sayText('Greet the user'); // null
 */
export function sayText(prompt: string): string | null {
  const m = /^\s*say:\s*/i.exec(prompt);
  return m ? prompt.slice(m[0].length).trim() : null;
}

/** A value of `report.extractedData`: typed by its field, `null` when not found. */
export type ExtractedValue = string | number | boolean | null;
export type ExtractedData = Record<string, ExtractedValue>;

/** One reply of the user, with what the guide said just before it (the question it answers). */
export interface Turn {
  question: string;
  reply: string;
}

export interface ExtractionInput {
  fields: readonly ExtractionField[];
  /** The user's turns, in order. */
  turns: readonly Turn[];
  /** The session's language (ISO 639-1). */
  lang: string;
}

/**
 * Reads the fields of an `extractionSchema` out of the user's turns: every field comes back,
 * typed by its `type`, `null` when no turn gives it.
 */
export interface FieldExtractor {
  extract(input: ExtractionInput): Promise<ExtractedData>;
}
