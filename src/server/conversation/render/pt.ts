import { capitalize, clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

// The page says "você" in Portuguese (Brazilian usage): the third person already is its verb
// form, so "ele/ela" simply becomes "você".

const TO = String.raw`(?:ao usuário|à usuária|ao cliente|à cliente|à pessoa|ao utilizador|à utilizadora)`;
const THEM = String.raw`(?:o usuário|a usuária|o cliente|a cliente|a pessoa|o utilizador|a utilizadora)`;
const ASK = String.raw`(?:pergunte|pergunta|pergunte-lhe)`;
const BEG = String.raw`(?:peça|pede|peça-lhe)`;
const SAY = String.raw`(?:diga|diz|diga-lhe|explique|explica|explique-lhe|informe|informa)`;

const NOUN_START = new Set(
  'o a os as um uma uns umas seu sua seus suas este esta esse essa meu minha'.split(' '),
);
const PRONOUN: Record<string, string> = { ele: 'você', ela: 'você', eles: 'você', elas: 'você' };

/**
 * Words said to the user: "ele/ela" → "você", "o código dele" → "o seu código" ("seu/sua"
 * already fit "você").
 *
 * @example
 * toVoce('ele tem o documento dele'); // 'você tem o seu documento'
 */
export function toVoce(text: string): string {
  const yours: Record<string, string> = { o: 'o seu', a: 'a sua', os: 'os seus', as: 'as suas' };
  const owned = text.replace(
    /(^|\s)(o|a|os|as) (\S+) (?:dele|dela|deles|delas)(?=[\s.,!?]|$)/giu,
    (_, s: string, article: string, noun: string) =>
      `${s}${yours[article.toLowerCase()] ?? article} ${noun}`,
  );
  return mapWords(owned, (w) => PRONOUN[w] ?? null);
}

/** A yes/no question: "Você abre uma conta?" or, with another subject, "Seu endereço está certo?" */
function question(clause: string): string {
  const said = toVoce(
    clauseOf(clause).replace(/^(?:o usuário|a usuária|o cliente|a cliente|a pessoa)(?=\s)/i, 'ele'),
  );
  const first = (wordsOf(said)[0] ?? '').toLowerCase();
  if (first === 'você' || NOUN_START.has(first)) return `${capitalize(said)}?`;
  return `Você ${said}?`;
}

const IMPERATIVE: Record<string, string> = {
  ser: 'seja',
  ir: 'vá',
  fazer: 'faça',
  ter: 'tenha',
  dizer: 'diga',
  pôr: 'ponha',
  vir: 'venha',
  estar: 'esteja',
  dar: 'dê',
  ver: 'veja',
  ler: 'leia',
  trazer: 'traga',
  poder: 'possa',
  saber: 'saiba',
  querer: 'queira',
  manter: 'mantenha',
  segurar: 'segure',
};

/** The "você" imperative of an infinitive ("olhar" → "olhe", "aproximar-se" → "aproxime-se"). */
function imperative(infinitive: string): string | null {
  const v = infinitive.toLowerCase();
  const reflexive = v.endsWith('-se');
  const base = reflexive ? v.slice(0, -3) : v;
  let imp: string | null = IMPERATIVE[base] ?? null;
  if (!imp) {
    if (base.endsWith('car')) imp = `${base.slice(0, -3)}que`;
    else if (base.endsWith('gar')) imp = `${base.slice(0, -3)}gue`;
    else if (base.endsWith('çar')) imp = `${base.slice(0, -3)}ce`;
    else if (base.endsWith('ar')) imp = `${base.slice(0, -2)}e`;
    else if (/[ei]r$/.test(base)) imp = `${base.slice(0, -2)}a`;
  }
  return imp && reflexive ? `${imp}-se` : imp;
}

export const PT: Grammar = {
  lang: 'pt',
  instruction:
    /^(?:pergunte|pergunta|pergunte-lhe|peça|pede|peça-lhe|diga|diz|diga-lhe|explique|explica|explique-lhe|informe|informa|cumprimente|cumprimenta|agradeça|agradece|dê as boas-vindas|despeça-se)(?=\s|$)/i,
  mentionsUser: /(?:ao usuário|o usuário|à usuária|ao cliente|ao utilizador)/i,
  lead: /^(?:(?:agora|depois|primeiro|por fim|educadamente|também),?\s+)+/i,
  joiner: /,?\s+e(?: depois| em seguida)?\s+|,\s+depois\s+/gi,
  fixed: { greet: 'Olá!', welcome: 'Boas-vindas!', thank: 'Obrigado!', goodbye: 'Até logo!' },
  forms: [
    {
      re: new RegExp(
        String.raw`^(?:cumprimente|cumprimenta)(?: ${THEM})?(?: (?:cordialmente|educadamente))?$`,
        'i',
      ),
      fixed: 'greet',
      say: () => 'Olá!',
    },
    {
      re: new RegExp(String.raw`^(?:dê|dá) as boas-vindas(?: ${TO})?$`, 'i'),
      fixed: 'welcome',
      say: () => 'Boas-vindas!',
    },
    {
      re: /^(?:despeça-se)(?: (?:do usuário|da usuária|do cliente|da pessoa))?$/i,
      fixed: 'goodbye',
      say: () => 'Até logo!',
    },
    {
      re: new RegExp(String.raw`^(?:agradeça|agradece)(?: (?:${TO}|${THEM}))?$`, 'i'),
      fixed: 'thank',
      say: () => 'Obrigado!',
    },
    {
      re: new RegExp(
        String.raw`^(?:agradeça|agradece)(?: (?:${TO}|${THEM}))? (por|pela|pelo|pelos|pelas) (.+)$`,
        'i',
      ),
      say: (m) => `Obrigado ${m[1]?.toLowerCase()} ${toVoce(m[2] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${TO})? se (.+)$`, 'i'),
      say: (m) => question(m[1] ?? ''),
    },
    {
      re: new RegExp(String.raw`^${BEG}(?: ${TO})? (?:que confirme|para confirmar) (.+)$`, 'i'),
      say: (m) => `Você pode confirmar ${toVoce(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(
        String.raw`^${BEG}(?: ${TO})? ((?:o seu|a sua|os seus|as suas|seu|sua|seus|suas) .+)$`,
        'i',
      ),
      say: (m) => `Pode me informar ${m[1] ?? ''}?`,
    },
    {
      re: new RegExp(String.raw`^${BEG}(?: ${TO})? para (\S+)(.*)$`, 'i'),
      say: (m) => {
        const verb = imperative(m[1] ?? '');
        return verb ? `Por favor, ${verb}${toVoce(m[2] ?? '')}.` : null;
      },
    },
    {
      re: new RegExp(String.raw`^${SAY}(?: (?:${TO}|${THEM}))? que (.+)$`, 'i'),
      say: (m) => sentence(toVoce(m[1] ?? '')),
    },
  ],
};
