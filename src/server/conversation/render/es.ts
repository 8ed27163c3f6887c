import { capitalize, clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

// The page says "tú" in Spanish: a verb of "él/ella/usted" becomes the "tú" form.

const TO = String.raw`(?:al usuario|a la usuaria|al cliente|a la clienta|a la persona|al solicitante)`;
const ASK = String.raw`(?:pregunta|pregúntale|pregunte|pregúntele)`;
const BEG = String.raw`(?:pide|pídele|pida|pídale)`;
const SAY = String.raw`(?:di|dile|diga|dígale|explica|explícale|explique|explíquele|indica|indícale|indique)`;

const TU: Record<string, string> = {
  es: 'eres',
  ha: 'has',
  va: 'vas',
  está: 'estás',
  da: 'das',
  ve: 'ves',
  sabe: 'sabes',
  son: 'eres',
  están: 'estás',
  tienen: 'tienes',
  quieren: 'quieres',
  pueden: 'puedes',
};
// Words that start a noun phrase: the clause's subject is not the user then.
const NOUN_START = new Set(
  'el la los las un una unos unas su sus tu tus este esta estos estas ese esa esos esas mi mis'.split(
    ' ',
  ),
);
const CLITIC: Record<string, string> = { se: 'te', le: 'te', lo: 'te', la: 'te', les: 'te' };
const POSSESSIVE: Record<string, string> = {
  su: 'tu',
  sus: 'tus',
  suyo: 'tuyo',
  suya: 'tuya',
  suyos: 'tuyos',
  suyas: 'tuyas',
  usted: 'ti',
};

/** A verb of "él/ella/usted" in the "tú" form; null when it cannot be told. */
function conjugate(verb: string): string | null {
  if (TU[verb]) return TU[verb];
  if (/[aeáé]$/.test(verb)) return `${verb}s`;
  return null;
}

/**
 * The clause as said to the user: its first verb (when the user is its subject) in the "tú"
 * form, "se/le" → "te", "su/sus" → "tu/tus". Null when the verb cannot be conjugated.
 *
 * @example
 * toTu('abre una cuenta'); // 'abres una cuenta'
 * toTu('su dirección es correcta'); // 'tu dirección es correcta'
 */
export function toTu(clause: string): string | null {
  const words = wordsOf(
    clause.replace(/^(?:el usuario|la usuaria|el cliente|la clienta|la persona)(?=\s)/i, 'él'),
  );
  let start = 0;
  if (/^(?:él|ella|usted)$/i.test(words[0] ?? '')) start = 1;
  const subjectIsUser = !NOUN_START.has((words[start] ?? '').toLowerCase());
  let conjugateAt = subjectIsUser ? start : -1;
  let failed = false;
  const out = mapWords(words.slice(start).join(' '), (w, i) => {
    const at = i + start;
    if (at === conjugateAt) {
      if (w === 'no' || CLITIC[w]) {
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

/**
 * Words said to the user, verbs left alone: "su/sus" → "tu/tus".
 *
 * @example
 * yours('su fecha de nacimiento'); // 'tu fecha de nacimiento'
 */
export function yours(text: string): string {
  return mapWords(text, (w) => POSSESSIVE[w] ?? null);
}

const IMPERATIVE: Record<string, string> = {
  tenga: 'ten',
  haga: 'haz',
  ponga: 'pon',
  diga: 'di',
  salga: 'sal',
  venga: 'ven',
  vaya: 've',
  sea: 'sé',
  esté: 'está',
  dé: 'da',
  sepa: 'sabe',
  siga: 'sigue',
};

/** The "tú" imperative of a present subjunctive ("que mire" → "mira"); null if unknown. */
function imperative(subjunctive: string): string | null {
  const v = subjunctive.toLowerCase();
  if (IMPERATIVE[v]) return IMPERATIVE[v];
  if (v.endsWith('que')) return `${v.slice(0, -3)}ca`;
  if (v.endsWith('gue')) return `${v.slice(0, -3)}ga`;
  if (v.endsWith('ce') && v.length > 3) return `${v.slice(0, -2)}za`;
  if (v.endsWith('zca')) return `${v.slice(0, -3)}ce`;
  if (v.endsWith('e')) return `${v.slice(0, -1)}a`;
  if (v.endsWith('a')) return `${v.slice(0, -1)}e`;
  return null;
}

export const ES: Grammar = {
  lang: 'es',
  instruction:
    /^(?:pregunta|pregúntale|pregunte|pregúntele|pide|pídele|pida|pídale|di|dile|diga|dígale|explica|explícale|explique|explíquele|indica|indícale|indique|informa|infórmale|informe|saluda|salude|agradece|agradécele|agradezca|da las gracias|dale las gracias|da la bienvenida|despídete|despídase)(?=\s|$)/i,
  mentionsUser: /(?:al usuario|a la usuaria|al cliente|a la clienta)/i,
  lead: /^(?:(?:ahora|luego|después|primero|por último|amablemente|también),?\s+)+/i,
  joiner: /,?\s+y(?: luego| después)?\s+|,\s+luego\s+/gi,
  fixed: {
    greet: '¡Hola!',
    welcome: '¡Te damos la bienvenida!',
    thank: '¡Gracias!',
    goodbye: '¡Hasta pronto!',
  },
  forms: [
    {
      re: new RegExp(
        String.raw`^(?:saluda|salude)(?: ${TO})?(?: (?:amablemente|cordialmente))?$`,
        'i',
      ),
      fixed: 'greet',
      say: () => '¡Hola!',
    },
    {
      re: new RegExp(String.raw`^(?:da|dale|dé|dele) la bienvenida(?: ${TO})?$`, 'i'),
      fixed: 'welcome',
      say: () => '¡Te damos la bienvenida!',
    },
    {
      re: /^(?:despídete|despídase)(?: (?:del usuario|de la usuaria|del cliente|de la persona))?$/i,
      fixed: 'goodbye',
      say: () => '¡Hasta pronto!',
    },
    {
      re: new RegExp(String.raw`^(?:da|dale|dé|dele) las gracias(?: ${TO})?$`, 'i'),
      fixed: 'thank',
      say: () => '¡Gracias!',
    },
    {
      re: new RegExp(String.raw`^(?:da|dale|dé|dele) las gracias(?: ${TO})? por (.+)$`, 'i'),
      say: (m) => `Gracias por ${yours(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(
        String.raw`^(?:agradece|agradécele|agradezca)(?: ${TO})? ((?:su|sus) .+)$`,
        'i',
      ),
      say: (m) => `Gracias por ${yours(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? si (.+)$`, 'i'),
      say: (m) => {
        const said = toTu(clauseOf(m[1] ?? ''));
        return said ? `¿${capitalize(said)}?` : null;
      },
    },
    {
      re: new RegExp(String.raw`^${BEG}(?: ${TO})? que confirme (.+)$`, 'i'),
      say: (m) => `¿Puedes confirmar ${yours(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^${BEG}(?: ${TO})? ((?:su|sus) .+)$`, 'i'),
      say: (m) => `¿Me indicas ${yours(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^${BEG}(?: ${TO})? que (\S+)(.*)$`, 'i'),
      say: (m) => {
        const verb = imperative(m[1] ?? '');
        if (!verb || /^(?:se|le|lo|la)$/i.test(m[1] ?? '')) return null;
        return `Por favor, ${verb}${yours(m[2] ?? '')}.`;
      },
    },
    {
      re: new RegExp(
        String.raw`^(?:${SAY}(?: ${TO})? que|(?:informa|infórmale|informe)(?: ${TO})? de que) (.+)$`,
        'i',
      ),
      say: (m) => {
        const said = toTu(m[1] ?? '');
        return said ? sentence(said) : null;
      },
    },
  ],
};
