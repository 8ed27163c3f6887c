import { capitalize, clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

const USER = String.raw`(?:the (?:user|customer|client|person|applicant|visitor)|them|him|her)`;

const PRONOUNS: Record<string, string> = {
  they: 'you',
  them: 'you',
  their: 'your',
  theirs: 'yours',
  themselves: 'yourself',
  themself: 'yourself',
  he: 'you',
  she: 'you',
  him: 'you',
  his: 'your',
  hers: 'yours',
  himself: 'yourself',
  herself: 'yourself',
  "they're": "you're",
  "they've": "you've",
  "they'll": "you'll",
  "they'd": "you'd",
  "he's": "you're",
  "she's": "you're",
};
const SINGULAR = new Set(['he', 'she', "he's", "she's"]);
const AGREE: Record<string, string> = {
  is: 'are',
  was: 'were',
  has: 'have',
  does: 'do',
  "isn't": "aren't",
  "wasn't": "weren't",
  "hasn't": "haven't",
  "doesn't": "don't",
};
const AUX = new Set([
  'are',
  'were',
  'is',
  'was',
  'have',
  'has',
  'had',
  'can',
  'could',
  'will',
  'would',
  'should',
  'shall',
  'may',
  'might',
  'must',
  'do',
  'does',
  'did',
]);

/** "have" is an auxiliary before these ("have you already sent"), a verb before a noun. */
const isParticiple = (word: string): boolean =>
  /(?:ed|en|wn|ne|ht|ught)$/i.test(word) ||
  [
    'already',
    'not',
    'ever',
    'never',
    'just',
    'got',
    'read',
    'had',
    'sent',
    'made',
    'put',
    'set',
  ].includes(word.toLowerCase());

/** A third-person singular verb in its base form: wants → want, goes → go, tries → try. */
function baseForm(verb: string): string {
  if (/(?:ss|us|is)$/.test(verb) || verb.length < 4) return verb;
  if (/ies$/.test(verb)) return `${verb.slice(0, -3)}y`;
  if (/(?:sh|ch|x|z|o)es$/.test(verb)) return verb.slice(0, -2);
  return verb.endsWith('s') ? verb.slice(0, -1) : verb;
}

/**
 * The clause as said to the user: "they/he/she/the user" → "you", "their" → "your", with the
 * verb that follows a singular subject agreeing ("the user has" → "you have").
 *
 * @example
 * toYou('the user has their passport'); // 'you have your passport'
 */
export function toYou(clause: string): string {
  const joined = clause
    .replace(/\bthe (?:user|customer|client|person|applicant|visitor)'s\b/gi, 'your')
    .replace(/\bthe (?:user|customer|client|person|applicant|visitor)\b/gi, 'he');
  let agreeNext = false;
  return mapWords(joined, (w, i, words) => {
    if (agreeNext) {
      agreeNext = false;
      if (AGREE[w]) return AGREE[w];
      if (w === 'not' || w === 'also' || w === 'already' || w === 'still') {
        agreeNext = true;
        return null;
      }
      return baseForm(w);
    }
    if (w === 'her') {
      const next = words[i + 1] ?? '';
      return next && !['and', 'or', 'to', 'that', 'if', 'for', 'with'].includes(next)
        ? 'your'
        : 'you';
    }
    const swapped = PRONOUNS[w];
    if (swapped) {
      agreeNext = SINGULAR.has(w);
      return swapped;
    }
    return null;
  });
}

/**
 * A yes/no question from a clause already said to the user: "you are ready" → "Are you
 * ready?", "you want to go on" → "Do you want to go on?", "your address is right" → "Is your
 * address right?". Null when no verb to move is found.
 *
 * @example
 * yesNo('you are opening a personal account'); // 'Are you opening a personal account?'
 */
export function yesNo(clause: string): string | null {
  const words = wordsOf(clauseOf(clause).replace(/,? or not$/i, ''));
  if (words.length < 2) return null;
  if (words[0]?.toLowerCase() === 'you') {
    const [, verb = '', ...rest] = words;
    const owns = verb.toLowerCase() === 'have' && !isParticiple(rest[0] ?? '');
    if (AUX.has(verb.toLowerCase()) && !owns)
      return `${capitalize(verb)} you ${rest.join(' ')}`.trim() + '?';
    return `Do you ${words.slice(1).join(' ')}?`;
  }
  const at = words.findIndex((w, i) => i > 0 && i < 6 && AUX.has(w.toLowerCase()));
  if (at < 0) return null;
  const subject = words.slice(0, at).join(' ');
  const rest = words.slice(at + 1).join(' ');
  return `${capitalize(words[at] ?? '')} ${subject}${rest ? ` ${rest}` : ''}?`;
}

export const EN: Grammar = {
  lang: 'en',
  instruction: new RegExp(
    String.raw`^(?:ask|tell|explain|inform|remind|greet|thank ${USER}|welcome ${USER}|let ${USER} know|say (?:hello|hi|goodbye)|bid farewell|check with)\b`,
    'i',
  ),
  mentionsUser: /\b(?:the (?:user|customer|client|applicant|visitor)|them|their)\b/i,
  lead: /^(?:(?:now|then|first|next|finally|politely|kindly|briefly|also|please),?\s+)+/i,
  joiner: /,?\s+and(?: then)?\s+|,\s+then\s+/gi,
  fixed: { greet: 'Hello!', welcome: 'Welcome!', thank: 'Thank you!', goodbye: 'Goodbye!' },
  forms: [
    {
      re: new RegExp(
        String.raw`^(?:greet|say (?:hello|hi) to)(?: ${USER})?(?: (?:warmly|politely|kindly|briefly))?$`,
        'i',
      ),
      fixed: 'greet',
      say: () => 'Hello!',
    },
    {
      re: new RegExp(String.raw`^welcome ${USER}(?: warmly)?$`, 'i'),
      fixed: 'welcome',
      say: () => 'Welcome!',
    },
    {
      re: new RegExp(String.raw`^(?:say goodbye|bid farewell)(?: to ${USER})?$`, 'i'),
      fixed: 'goodbye',
      say: () => 'Goodbye!',
    },
    {
      re: new RegExp(String.raw`^thank ${USER}(?: (?:warmly|politely))?$`, 'i'),
      fixed: 'thank',
      say: () => 'Thank you!',
    },
    {
      re: new RegExp(String.raw`^thank ${USER} for (.+)$`, 'i'),
      say: (m) => `Thank you for ${toYou(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^(?:ask|check with)(?: ${USER})? (?:whether|if) (.+)$`, 'i'),
      say: (m) => yesNo(toYou(m[1] ?? '')),
    },
    {
      re: new RegExp(String.raw`^ask(?: ${USER})? to confirm (.+)$`, 'i'),
      say: (m) => `Can you confirm ${toYou(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^ask(?: ${USER})? for (.+)$`, 'i'),
      say: (m) => `Could you tell me ${toYou(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^ask(?: ${USER})? to (.+)$`, 'i'),
      say: (m) => `Please ${toYou(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(
        String.raw`^(?:tell|inform|remind|let) ${USER}(?: know)?(?: that)? (.+)$`,
        'i',
      ),
      say: (m) => sentence(toYou(m[1] ?? '')),
    },
    {
      re: new RegExp(String.raw`^explain(?: to ${USER})? that (.+)$`, 'i'),
      say: (m) => sentence(toYou(m[1] ?? '')),
    },
  ],
};
