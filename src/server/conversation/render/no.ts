import { capitalize, clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

// The page says "du" in Norwegian. A subordinate clause ("om han er klar") becomes a question
// with the verb first ("Er du klar?"); "ikke" moves behind the verb in a main clause.

const USER = String.raw`(?:brukeren|kunden|personen|søkeren|ham|henne|dem)`;

const PRONOUN: Record<string, string> = {
  han: 'du',
  hun: 'du',
  de: 'du',
  hen: 'du',
  ham: 'deg',
  henne: 'deg',
  dem: 'deg',
  seg: 'deg',
  sin: 'din',
  sitt: 'ditt',
  sine: 'dine',
  hans: 'din',
  hennes: 'din',
  deres: 'din',
};
const MODAL = new Set(['vil', 'kan', 'skal', 'må', 'bør', 'var', 'ble', 'har', 'er', 'får']);
const isVerb = (w: string) => MODAL.has(w) || /\p{L}{2,}r$/u.test(w);

/**
 * Words said to the user: "han/hun/de" → "du", "sin/hans" → "din", "seg" → "deg".
 *
 * @example
 * toDu('han har passet sitt'); // 'du har passet ditt'
 */
export function toDu(text: string): string {
  return mapWords(text, (w) => PRONOUN[w] ?? null);
}

/** The subject, the verb and the rest of a subordinate clause ("han ikke er klar"). */
function parts(clause: string): { subject: string[]; verb: string; rest: string[] } | null {
  const words = wordsOf(
    toDu(clauseOf(clause).replace(/^(?:brukeren|kunden|personen|søkeren)(?=\s)/i, 'han')),
  );
  const at = words.findIndex((w, i) => i > 0 && isVerb(w.toLowerCase()));
  if (at < 1) return null;
  const before = words.slice(0, at);
  const negated = before[before.length - 1]?.toLowerCase() === 'ikke';
  return {
    subject: negated ? before.slice(0, -1) : before,
    verb: words[at] ?? '',
    rest: [...(negated ? ['ikke'] : []), ...words.slice(at + 1)],
  };
}

function question(clause: string): string | null {
  const p = parts(clause);
  if (!p) return null;
  const subject = p.subject.join(' ');
  const lowered = subject === 'Du' ? 'du' : subject.charAt(0).toLowerCase() + subject.slice(1);
  return `${capitalize(p.verb)} ${[lowered, ...p.rest].join(' ')}?`;
}

function statement(clause: string): string | null {
  const p = parts(clause);
  return p ? sentence([...p.subject, p.verb, ...p.rest].join(' ')) : sentence(toDu(clause));
}

export const NO: Grammar = {
  lang: 'no',
  instruction:
    /^(?:spør|be (?:brukeren|kunden|personen|søkeren|ham|henne|dem|om)|si til|si ha det|fortell|forklar|informer|hils|ønsk|takk (?:brukeren|kunden|personen|søkeren|ham|henne|dem)|ta farvel)(?=\s|$)/i,
  mentionsUser: /(?:brukeren|kunden)(?=\s|,|$)/i,
  lead: /^(?:(?:nå|så|først|deretter|til slutt|høflig|også),?\s+)+/i,
  joiner: /,?\s+og(?: så| deretter)?\s+|,\s+deretter\s+/gi,
  fixed: { greet: 'Hei!', welcome: 'Velkommen!', thank: 'Takk!', goodbye: 'Ha det bra!' },
  forms: [
    {
      re: new RegExp(String.raw`^hils(?: på ${USER})?(?: vennlig)?$`, 'i'),
      fixed: 'greet',
      say: () => 'Hei!',
    },
    {
      re: new RegExp(String.raw`^ønsk ${USER} velkommen$`, 'i'),
      fixed: 'welcome',
      say: () => 'Velkommen!',
    },
    {
      re: new RegExp(String.raw`^(?:si ha det|ta farvel)(?: (?:til|med) ${USER})?$`, 'i'),
      fixed: 'goodbye',
      say: () => 'Ha det bra!',
    },
    {
      re: new RegExp(String.raw`^takk ${USER}$`, 'i'),
      fixed: 'thank',
      say: () => 'Takk!',
    },
    {
      re: new RegExp(String.raw`^takk ${USER} for (.+)$`, 'i'),
      say: (m) => `Takk for ${toDu(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^spør(?: ${USER})? om (.+)$`, 'i'),
      say: (m) => question(m[1] ?? ''),
    },
    {
      re: new RegExp(String.raw`^be(?: ${USER})? (?:om å )?bekrefte (.+)$`, 'i'),
      say: (m) => `Kan du bekrefte ${toDu(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^be(?: ${USER})? om (?!å )(.+)$`, 'i'),
      say: (m) => `Kan du oppgi ${toDu(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^be ${USER} (?:om å )?(.+)$`, 'i'),
      say: (m) => `Kan du ${toDu(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(
        String.raw`^(?:si til ${USER}|fortell ${USER}|forklar(?: for ${USER})?|informer ${USER} om) at (.+)$`,
        'i',
      ),
      say: (m) => statement(m[1] ?? ''),
    },
  ],
};
