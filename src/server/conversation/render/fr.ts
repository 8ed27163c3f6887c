import { mapWords, sentence, type Grammar } from './grammar';

// The page says "vous" in French: the user is addressed with the second person plural.

const TO = String.raw`(?:à l'utilisateur|à l'utilisatrice|au client|à la cliente|à la personne|à l'usager|lui)`;
const THEM = String.raw`(?:l'utilisateur|l'utilisatrice|le client|la cliente|la personne|l'usager|le|la)`;
const ASK = String.raw`(?:demande|demandez)(?:-lui)?`;

const VOUS: Record<string, string> = {
  est: 'êtes',
  a: 'avez',
  va: 'allez',
  fait: 'faites',
  dit: 'dites',
  peut: 'pouvez',
  veut: 'voulez',
  doit: 'devez',
  sait: 'savez',
  prend: 'prenez',
  vient: 'venez',
  tient: 'tenez',
  voit: 'voyez',
  croit: 'croyez',
  met: 'mettez',
  lit: 'lisez',
  écrit: 'écrivez',
  vit: 'vivez',
  sont: 'êtes',
  ont: 'avez',
  vont: 'allez',
  font: 'faites',
  peuvent: 'pouvez',
  veulent: 'voulez',
  doivent: 'devez',
  savent: 'savez',
  appelle: 'appelez',
  rappelle: 'rappelez',
  épelle: 'épelez',
  jette: 'jetez',
  préfère: 'préférez',
  répète: 'répétez',
  complète: 'complétez',
  possède: 'possédez',
  achète: 'achetez',
  lève: 'levez',
  mène: 'menez',
  amène: 'amenez',
};

/** A verb of "il/elle" (or "ils") in the "vous" form; null when it cannot be told. */
function conjugate(verb: string): string | null {
  if (VOUS[verb]) return VOUS[verb];
  if (verb.endsWith('ent') && verb.length > 4) return `${verb.slice(0, -3)}ez`;
  if (verb.endsWith('e')) return `${verb}z`;
  if (/i[st]$/.test(verb)) return `${verb.slice(0, -1)}ssez`;
  return null;
}

const POSSESSIVE: Record<string, string> = {
  son: 'votre',
  sa: 'votre',
  ses: 'vos',
  leur: 'votre',
  leurs: 'vos',
  lui: 'vous',
  se: 'vous',
  "s'": 'vous ',
  sien: 'vôtre',
  sienne: 'vôtre',
};

/**
 * The clause as said to the user: "il/elle" → "vous" with the verb that follows conjugated,
 * "son/sa/ses" → "votre/vos", "se" → "vous". Null when a verb cannot be conjugated.
 *
 * @example
 * toVous("il ouvre un compte"); // 'vous ouvrez un compte'
 */
export function toVous(clause: string): string | null {
  let failed = false;
  let conjugateNext = false;
  const split = clause
    .replace(/^(?:l'utilisateur|l'utilisatrice|le client|la cliente|la personne)(?=\s)/i, 'il')
    .replace(/(^|\s)([sn]')(?=\p{L})/giu, '$1$2 ');
  const out = mapWords(split, (w) => {
    if (['il', 'elle', 'ils', 'elles'].includes(w)) {
      conjugateNext = true;
      return 'vous';
    }
    if (conjugateNext) {
      if (w === 'ne' || w === "n'") return null;
      if (w === 'se' || w === "s'") return 'vous';
      conjugateNext = false;
      const v = conjugate(w);
      if (!v) failed = true;
      return v;
    }
    return POSSESSIVE[w] ?? null;
  })
    .replace(/vous {2}/g, 'vous ')
    .replace(/(^|\s)([nN]') /g, '$1$2');
  return failed ? null : out;
}

/** "Est-ce que …" question from a clause after "si"/"s'il". */
function question(subjectGiven: string, clause: string): string | null {
  const personal = /^(?:s'il|s'ils|si elle|si elles)$/i.test(subjectGiven);
  const said = toVous(personal ? `il ${clause}` : clause);
  return said ? `Est-ce que ${said}\u00a0?` : null;
}

export const FR: Grammar = {
  lang: 'fr',
  instruction:
    /^(?:demande|demandez|dis|dites|explique|expliquez|indique|indiquez|informe|informez|préviens|prévenez|salue|saluez|souhaite|souhaitez|remercie|remerciez)\b/i,
  mentionsUser: /(?:l'utilisateur|l'utilisatrice|l'usager|au client|à la cliente)/i,
  lead: /^(?:(?:maintenant|ensuite|puis|d'abord|enfin|poliment|gentiment|aussi),?\s+)+/i,
  joiner: /,?\s+et(?: puis| ensuite)?\s+|,\s+puis\s+/gi,
  fixed: {
    greet: 'Bonjour\u00a0!',
    welcome: 'Bienvenue\u00a0!',
    thank: 'Merci\u00a0!',
    goodbye: 'Au revoir\u00a0!',
  },
  forms: [
    {
      re: new RegExp(
        String.raw`^(?:salue|saluez)(?: ${THEM})?(?: (?:chaleureusement|poliment))?$`,
        'i',
      ),
      fixed: 'greet',
      say: () => 'Bonjour\u00a0!',
    },
    {
      re: new RegExp(String.raw`^(?:souhaite|souhaitez) la bienvenue(?: ${TO})?$`, 'i'),
      fixed: 'welcome',
      say: () => 'Bienvenue\u00a0!',
    },
    {
      re: new RegExp(String.raw`^(?:dis|dites) au revoir(?: ${TO})?$`, 'i'),
      fixed: 'goodbye',
      say: () => 'Au revoir\u00a0!',
    },
    {
      re: new RegExp(String.raw`^(?:remercie|remerciez) ${THEM}$`, 'i'),
      fixed: 'thank',
      say: () => 'Merci\u00a0!',
    },
    {
      re: new RegExp(String.raw`^(?:remercie|remerciez) ${THEM} (de |d'|pour )(.+)$`, 'i'),
      say: (m) => {
        const what = toVous(m[2] ?? '');
        return what ? `Merci ${m[1]}${what}.` : null;
      },
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? (s'il|s'ils|si elle|si elles|si) (.+)$`, 'i'),
      say: (m) => question(m[1] ?? '', m[2] ?? ''),
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? de confirmer (.+)$`, 'i'),
      say: (m) => {
        const what = toVous(m[1] ?? '');
        return what ? `Pouvez-vous confirmer ${what}\u00a0?` : null;
      },
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? ((?:son|sa|ses|leur|leurs) .+)$`, 'i'),
      say: (m) => {
        const what = toVous(m[1] ?? '');
        return what ? `Pouvez-vous m'indiquer ${what}\u00a0?` : null;
      },
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? d(?:e |')(.+)$`, 'i'),
      say: (m) => {
        const what = toVous(m[1] ?? '');
        return what ? `Veuillez ${what}.` : null;
      },
    },
    {
      re: new RegExp(
        String.raw`^(?:(?:dis|dites|explique|expliquez|indique|indiquez)(?:-lui)?(?: ${TO})?|(?:informe|informez|préviens|prévenez) ${THEM}) qu(?:e |')(.+)$`,
        'i',
      ),
      say: (m) => {
        const said = toVous(m[1] ?? '');
        return said ? sentence(said) : null;
      },
    },
  ],
};
