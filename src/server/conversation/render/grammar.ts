/**
 * The shape of one language's grammar for the local prompt renderer: the descriptive forms an
 * integrator writes to the guide ("Ask the user whether …") and how each becomes what the guide
 * says ("Are you …?"), in the register the page uses in that language.
 */

/** The forms that carry no content of the integrator's: said in the session's own language. */
export type FixedForm = 'greet' | 'welcome' | 'thank' | 'goodbye';

/** One descriptive form: a pattern over a whole instruction and what the guide says for it. */
export interface Form {
  re: RegExp;
  /** What the guide says; null when the form matched but its content cannot be said. */
  say(m: RegExpExecArray): string | null;
  /** A form whose words are fixed (a greeting): the session's language may say it instead. */
  fixed?: FixedForm;
}

export interface Grammar {
  lang: string;
  /** An instruction to the guide starts so (its first verb, after `lead`). */
  instruction: RegExp;
  /** The prompt speaks of the user in the third person: it is meant for the guide. */
  mentionsUser: RegExp;
  /** Words that may come before the instruction's verb ("Now", "Politely"), dropped. */
  lead: RegExp;
  /** Where one instruction is joined to the next ("… and ask whether …"). */
  joiner: RegExp;
  forms: readonly Form[];
  /** The fixed forms in this language. */
  fixed: Record<FixedForm, string>;
}

/**
 * The first letter in upper case.
 *
 * @example
 * capitalize('your code is on its way'); // 'Your code is on its way'
 */
export function capitalize(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/**
 * A statement: capitalised, ending with a full stop unless it ends with other punctuation.
 *
 * @example
 * sentence('your code is on its way'); // 'Your code is on its way.'
 */
export function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? capitalize(t) : `${capitalize(t)}.`;
}

/**
 * Maps each word of a text (punctuation around it kept) through `fn`, which sees the word in
 * lower case, its index and all the words, and returns the new word (or null to keep it).
 *
 * @example
 * mapWords('their name,', (w) => (w === 'their' ? 'your' : null)); // 'your name,'
 */
export function mapWords(
  text: string,
  fn: (word: string, i: number, words: readonly string[]) => string | null,
): string {
  const parts = text.split(/(\s+)/);
  const words = parts.filter((_, i) => i % 2 === 0).map((p) => bare(p).toLocaleLowerCase());
  let w = 0;
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return part;
      const index = w++;
      const m = /^([^\p{L}\p{N}']*)(.*?)([^\p{L}\p{N}']*)$/u.exec(part);
      if (!m) return part;
      const next = fn(words[index] ?? '', index, words);
      if (next === null) return part;
      const core = m[2] ?? '';
      const cased = core.charAt(0) !== core.charAt(0).toLocaleLowerCase() ? capitalize(next) : next;
      return `${m[1] ?? ''}${cased}${m[3] ?? ''}`;
    })
    .join('');
}

/** A word without the punctuation around it. */
export function bare(word: string): string {
  return word.replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');
}

/** A clause with the final punctuation and spaces gone. */
export function clauseOf(text: string): string {
  return text.trim().replace(/[\s.!?;:,]+$/u, '');
}

/** The words of a clause (split on spaces). */
export const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);
