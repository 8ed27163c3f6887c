import { capitalize, clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

// The page says "tu" in Italian: a verb of "lui/lei" becomes the "tu" form.

const TO = String.raw`(?:all'utente|al cliente|alla cliente|alla persona|al richiedente)`;
const THEM = String.raw`(?:l'utente|il cliente|la cliente|la persona)`;
const ASK = String.raw`(?:chiedi|chiedigli|chiedile|chieda)`;
const SAY = String.raw`(?:di'|dì|di|digli|dille|dica|spiega|spiegagli|spiegale|spieghi)`;

const TU: Record<string, string> = {
  è: 'sei',
  ha: 'hai',
  va: 'vai',
  fa: 'fai',
  sa: 'sai',
  dà: 'dai',
  sta: 'stai',
  può: 'puoi',
  vuole: 'vuoi',
  deve: 'devi',
  viene: 'vieni',
  tiene: 'tieni',
  esce: 'esci',
  rimane: 'rimani',
};
const NOUN_START = new Set(
  "il lo la l' i gli le un uno una un' suo sua suoi sue questo questa quel quella".split(' '),
);
const CLITIC: Record<string, string> = { si: 'ti', gli: 'ti', le: 'ti', lo: 'ti', la: 'ti' };
const POSSESSIVE: Record<string, string> = { suo: 'tuo', sua: 'tua', suoi: 'tuoi', sue: 'tue' };

function conjugate(verb: string): string | null {
  if (TU[verb]) return TU[verb];
  if (/[ae]$/.test(verb) && verb.length > 2) return `${verb.slice(0, -1)}i`;
  return null;
}

/**
 * Words said to the user, verbs left alone: "suo/sua" → "tuo/tua".
 *
 * @example
 * yours('il suo indirizzo email'); // 'il tuo indirizzo email'
 */
export function yours(text: string): string {
  return mapWords(text, (w) => POSSESSIVE[w] ?? null);
}

/**
 * The clause as said to the user: its first verb (when the user is its subject) in the "tu"
 * form, "si" → "ti", "suo" → "tuo". Null when the verb cannot be conjugated.
 *
 * @example
 * toTu('apre un conto personale'); // 'apri un conto personale'
 */
export function toTu(clause: string): string | null {
  const words = wordsOf(
    clause.replace(/^(?:l'utente|il cliente|la cliente|la persona)(?=\s)/i, 'lui'),
  );
  const start = /^(?:lui|lei)$/i.test(words[0] ?? '') ? 1 : 0;
  const first = (words[start] ?? '').toLowerCase();
  let conjugateAt = NOUN_START.has(first) || first.startsWith("l'") ? -1 : start;
  let failed = false;
  const out = mapWords(words.slice(start).join(' '), (w, i) => {
    if (i + start === conjugateAt) {
      if (w === 'non' || CLITIC[w]) {
        conjugateAt++;
        return CLITIC[w] ?? null;
      }
      const v = conjugate(w);
      if (!v) failed = true;
      return v;
    }
    return POSSESSIVE[w] ?? null;
  });
  return failed ? null : out;
}

const IMPERATIVE: Record<string, string> = {
  essere: 'sii',
  avere: 'abbi',
  andare: "va'",
  fare: "fa'",
  dire: "di'",
  dare: "da'",
  stare: "sta'",
};

/** The "tu" imperative of an infinitive ("guardare" → "guarda", "mettersi" → "mettiti"). */
function imperative(infinitive: string): string | null {
  const v = infinitive.toLowerCase();
  if (IMPERATIVE[v]) return IMPERATIVE[v];
  const reflexive = /rsi$/.test(v);
  const base = reflexive ? `${v.slice(0, -3)}re` : v;
  let imp: string | null = null;
  if (base.endsWith('are')) imp = `${base.slice(0, -3)}a`;
  else if (/[ei]re$/.test(base)) imp = `${base.slice(0, -3)}i`;
  return imp && reflexive ? `${imp}ti` : imp;
}

export const IT: Grammar = {
  lang: 'it',
  instruction:
    /^(?:chiedi|chiedigli|chiedile|chieda|di'|dì|digli|dille|dica|spiega|spiegagli|spiegale|spieghi|informa|informi|saluta|saluti|ringrazia|ringrazi|dai il benvenuto|congeda)(?=\s|$)/i,
  mentionsUser: /(?:all'utente|l'utente|al cliente)/i,
  lead: /^(?:(?:ora|adesso|poi|prima|infine|gentilmente|anche),?\s+)+/i,
  joiner: /,?\s+e(?: poi)?\s+|,\s+poi\s+/gi,
  fixed: {
    greet: 'Ciao!',
    welcome: 'Ti diamo il benvenuto!',
    thank: 'Grazie!',
    goodbye: 'Arrivederci!',
  },
  forms: [
    {
      re: new RegExp(
        String.raw`^(?:saluta|saluti)(?: ${THEM})?(?: (?:cordialmente|calorosamente))?$`,
        'i',
      ),
      fixed: 'greet',
      say: () => 'Ciao!',
    },
    {
      re: new RegExp(String.raw`^(?:dai|dà|dia) il benvenuto(?: ${TO})?$`, 'i'),
      fixed: 'welcome',
      say: () => 'Ti diamo il benvenuto!',
    },
    {
      re: new RegExp(String.raw`^congeda(?: ${THEM})?$`, 'i'),
      fixed: 'goodbye',
      say: () => 'Arrivederci!',
    },
    {
      re: new RegExp(String.raw`^(?:ringrazia|ringrazi)(?: ${THEM})?$`, 'i'),
      fixed: 'thank',
      say: () => 'Grazie!',
    },
    {
      re: new RegExp(
        String.raw`^(?:ringrazia|ringrazi)(?: ${THEM})? (per|della|del|dei|delle) (.+)$`,
        'i',
      ),
      say: (m) => `Grazie ${m[1]?.toLowerCase()} ${yours(m[2] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? se (.+)$`, 'i'),
      say: (m) => {
        const said = toTu(clauseOf(m[1] ?? ''));
        return said ? `${capitalize(said)}?` : null;
      },
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? di confermare (.+)$`, 'i'),
      say: (m) => `Puoi confermare ${yours(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? ((?:il suo|la sua|i suoi|le sue) .+)$`, 'i'),
      say: (m) => `Mi dici ${yours(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? di (\S+)(.*)$`, 'i'),
      say: (m) => {
        const verb = imperative(m[1] ?? '');
        return verb ? `Per favore, ${verb}${yours(m[2] ?? '')}.` : null;
      },
    },
    {
      re: new RegExp(
        String.raw`^(?:${SAY}(?: ${TO})?|(?:informa|informi)(?: ${THEM})?) che (.+)$`,
        'i',
      ),
      say: (m) => {
        const said = toTu(m[1] ?? '');
        return said ? sentence(said) : null;
      },
    },
  ],
};
