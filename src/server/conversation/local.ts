import { AFFIRM, ANYTHING, NEGATE, NUMBER_WORDS, REFUSE } from './lexicon';
import { fixedIn, readPrompt } from './render';
import {
  sayText,
  type ConditionEvaluator,
  type ConditionInput,
  type PromptInput,
  type PromptRenderer,
} from './types';

/**
 * Lower case, no accents, one kind of apostrophe, words separated by single spaces.
 *
 * @example
 * normalizeText("  Bien SÛR, d’accord! "); // "bien sur d'accord"
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’`´]/g, "'")
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ')
    .trim();
}

const prep = (list: readonly string[]) => [...new Set(list.map(normalizeText))];
const AFFIRM_N = prep(AFFIRM);
const NEGATE_N = prep(NEGATE);
const REFUSE_N = prep(REFUSE);
const ANYTHING_N = prep(ANYTHING);

/** Where in a normalised text a phrase first occurs as whole words; -1 when absent. */
function phraseAt(text: string, phrase: string): number {
  const hay = ` ${text} `;
  const i = hay.indexOf(` ${phrase} `);
  return i;
}

const firstOf = (text: string, list: string[]): number => {
  let best = -1;
  for (const p of list) {
    const i = phraseAt(text, p);
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best;
};

export type Polarity = 'affirmative' | 'negative' | 'refusal' | 'unknown';

/**
 * What a reply says, in any of the nine languages: a refusal, a no, a yes, or neither. When a
 * reply holds both a yes and a no word, the first one decides ("yes, no problem").
 *
 * @example
 * polarityOf('Да, конечно'); // 'affirmative'
 * polarityOf("non, je ne veux pas"); // 'refusal'
 */
export function polarityOf(reply: string): Polarity {
  const t = normalizeText(reply);
  if (!t) return 'unknown';
  if (firstOf(t, REFUSE_N) >= 0) return 'refusal';
  const yes = firstOf(t, AFFIRM_N);
  const no = firstOf(t, NEGATE_N);
  if (yes < 0 && no < 0) return 'unknown';
  if (no < 0) return 'affirmative';
  if (yes < 0) return 'negative';
  return yes < no ? 'affirmative' : 'negative';
}

/**
 * The first number in a reply: digits, or a number word (0–20) of the session's language.
 *
 * @example
 * numberIn('I am 42 years old', 'en'); // 42
 * numberIn('dix-huit', 'fr'); // 18
 */
export function numberIn(reply: string, lang: string): number | null {
  // Digits are read before normalising, which would split a decimal point off ("18.5").
  const digits = /-?\d+(?:[.,]\d+)?/.exec(reply);
  if (digits) return Number(digits[0].replace(',', '.'));
  const t = normalizeText(reply);
  const words = (NUMBER_WORDS[lang] ?? NUMBER_WORDS['en'] ?? []).map(normalizeText);
  for (const token of t.split(' ')) {
    const i = words.indexOf(token);
    if (i >= 0) return i;
  }
  return null;
}

type NumberRule =
  { op: 'gt' | 'ge' | 'lt' | 'le' | 'eq'; n: number } | { op: 'between'; a: number; b: number };

function numberRule(c: string): NumberRule | null {
  const between = /between (-?\d+(?:\.\d+)?) and (-?\d+(?:\.\d+)?)/.exec(c);
  if (between) return { op: 'between', a: Number(between[1]), b: Number(between[2]) };
  const rules: [RegExp, 'gt' | 'ge' | 'lt' | 'le' | 'eq'][] = [
    [
      /(?:at least|or more|minimum|min) (-?\d+(?:\.\d+)?)|(-?\d+(?:\.\d+)?) or (?:more|older|above|higher)/,
      'ge',
    ],
    [
      /(?:at most|or less|maximum|max) (-?\d+(?:\.\d+)?)|(-?\d+(?:\.\d+)?) or (?:less|younger|below|lower|fewer)/,
      'le',
    ],
    [
      /(?:greater than|more than|older than|over|above|higher than|bigger than|larger than) (-?\d+(?:\.\d+)?)/,
      'gt',
    ],
    [
      /(?:less than|fewer than|younger than|under|below|lower than|smaller than) (-?\d+(?:\.\d+)?)/,
      'lt',
    ],
    [/(?:exactly|equal to|equals|is) (-?\d+(?:\.\d+)?)/, 'eq'],
  ];
  for (const [re, op] of rules) {
    const m = re.exec(c);
    if (m) return { op, n: Number(m[1] ?? m[2]) };
  }
  return null;
}

function holds(rule: NumberRule, v: number): boolean {
  switch (rule.op) {
    case 'between':
      return v >= Math.min(rule.a, rule.b) && v <= Math.max(rule.a, rule.b);
    case 'gt':
      return v > rule.n;
    case 'ge':
      return v >= rule.n;
    case 'lt':
      return v < rule.n;
    case 'le':
      return v <= rule.n;
    case 'eq':
      return v === rule.n;
  }
}

const QUOTED = /["“”«»„']([^"“”«»„']{1,80})["“”«»„']/g;
const STOP = new Set(
  'the user says said reply replies answer answers mentions mention talks talk about that they their them with wants want would like says something when this what which who whom whose from into have has had been being were will shall should could does did doing make makes made give gives gave person customer client response responds respond states state indicates indicate'.split(
    ' ',
  ),
);

/**
 * Judges one condition against a reply, deterministically:
 * empty or "anything/otherwise" → always; quoted words → the reply holds one of them; a number
 * comparison ("over 18", "between 1 and 5") → the number in the reply; refusal, no and yes
 * conditions → the reply's polarity in any of the nine languages; otherwise the condition's
 * significant words → the reply holds one of them.
 *
 * @example
 * conditionMatches('The user agrees', 'oui bien sûr', 'fr'); // true
 * conditionMatches('The user is older than 18', 'I am 17', 'en'); // false
 */
export function conditionMatches(condition: string, reply: string, lang: string): boolean {
  const raw = condition.trim();
  if (raw === '') return true;
  const c = normalizeText(raw);
  if (ANYTHING_N.some((p) => phraseAt(c, p) >= 0)) return true;
  const r = normalizeText(reply);

  const quoted = [...raw.matchAll(QUOTED)].map((m) => normalizeText(m[1] ?? '')).filter(Boolean);
  if (quoted.length) return quoted.some((q) => phraseAt(r, q) >= 0 || r.includes(q));

  const rule = numberRule(c);
  if (rule) {
    const v = numberIn(reply, lang);
    return v !== null && holds(rule, v);
  }

  const polarity = polarityOf(reply);
  if (
    /\b(refus\w*|declin\w*|reject\w*|cancel\w*|stop\w*|unwilling|quit\w*)\b/.test(c) ||
    /(doesn't|does not|don't|do not|won't|will not) want/.test(c)
  ) {
    return polarity === 'refusal' || polarity === 'negative';
  }
  if (
    /\b(no|not|disagree\w*|negative|den(y|ies)|false|nope)\b/.test(c) ||
    firstOf(c, NEGATE_N) >= 0
  ) {
    return polarity === 'negative' || polarity === 'refusal';
  }
  if (
    /\b(yes|agree\w*|confirm\w*|accept\w*|consent\w*|affirmative|positive|ready|willing|true|ok|okay)\b/.test(
      c,
    ) ||
    firstOf(c, AFFIRM_N) >= 0
  ) {
    return polarity === 'affirmative';
  }

  const words = c.split(' ').filter((w) => w.length >= 4 && !STOP.has(w));
  if (words.length === 0) return false;
  const replyWords = new Set(r.split(' '));
  return words.some((w) => replyWords.has(w) || r.includes(w));
}

/**
 * The local evaluator: needs nothing, the same answer every time.
 *
 * @example
 * await new LocalConditionEvaluator().choose({ conditions: ['user says no', ''], reply: 'nein', lang: 'de' }); // 0
 */
export class LocalConditionEvaluator implements ConditionEvaluator {
  async choose(input: ConditionInput): Promise<number | null> {
    const i = input.conditions.findIndex((c) => conditionMatches(c, input.reply, input.lang));
    return i >= 0 ? i : null;
  }
}

/** What the guide says when a prompt is an instruction it cannot put into words. */
const ANSWER_BELOW: Record<string, string> = {
  en: 'Please answer below.',
  fr: 'Veuillez répondre ci-dessous.',
  de: 'Bitte antworten Sie unten.',
  es: 'Responde aquí abajo, por favor.',
  it: 'Rispondi qui sotto, per favore.',
  pt: 'Responda aqui embaixo, por favor.',
  ru: 'Пожалуйста, ответьте ниже.',
  id: 'Silakan jawab di bawah ini.',
  no: 'Svar nedenfor, er du snill.',
};

/**
 * The local renderer: a `Say:` prompt word for word; a descriptive prompt in direct speech by the
 * grammars of `render/` (greetings and thanks in the session's language, content in the
 * language it is written in); a prompt that is no instruction as written. An instruction it
 * cannot say is refused at session creation (`problemWith`); should one reach it anyway (a flow
 * stored before, an LLM that fails), the guide asks for an answer rather than read it out.
 *
 * @example
 * await new LocalPromptRenderer().render({ prompt: 'Say: Hello', lang: 'en' }); // 'Hello'
 * await new LocalPromptRenderer().render({ prompt: 'Ask the user if they are ready', lang: 'en' }); // 'Are you ready?'
 */
export class LocalPromptRenderer implements PromptRenderer {
  async render(input: PromptInput): Promise<string> {
    const said = sayText(input.prompt);
    if (said !== null) return said;
    const reading = readPrompt(input.prompt);
    switch (reading.kind) {
      case 'speech':
        return reading.text;
      case 'rendered':
        return (reading.fixed && fixedIn(input.lang, reading.fixed)) || reading.text;
      case 'unrenderable':
        return ANSWER_BELOW[input.lang] ?? ANSWER_BELOW['en']!;
    }
  }

  /**
   * Why a prompt cannot be said without an LLM, or null when it can.
   *
   * @example
   * new LocalPromptRenderer().problemWith('Verify the user'); // 'the guide cannot say …'
   */
  problemWith(prompt: string): string | null {
    if (sayText(prompt) !== null || readPrompt(prompt).kind !== 'unrenderable') return null;
    return (
      'the guide cannot say this descriptive prompt without an LLM: write what it says after ' +
      '"Say:", or use a form it knows (ask whether/if/for/to confirm/to …, tell, explain that, ' +
      'greet, thank), or configure LLM_BASE_URL'
    );
  }
}
