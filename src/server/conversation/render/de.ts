import { capitalize, clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

// The page says "Sie" in German. Instructions come as "du" ("Frage den Nutzer, ob …") or "Sie"
// ("Fragen Sie den Nutzer, ob …"); a subordinate clause ("ob er … eröffnet") becomes a question
// or statement with the verb moved and conjugated for "Sie".

const ACC = String.raw`(?:den (?:Nutzer|Benutzer|Kunden|Anwender|Teilnehmer|Antragsteller)|die (?:Nutzerin|Benutzerin|Kundin|Anwenderin|Teilnehmerin|Person)|ihn|sie)`;
const DAT = String.raw`(?:dem (?:Nutzer|Benutzer|Kunden|Anwender|Teilnehmer|Antragsteller)|der (?:Nutzerin|Benutzerin|Kundin|Anwenderin|Teilnehmerin|Person)|ihm|ihr)`;
const AT = String.raw`(?:bei ${DAT}|beim (?:Nutzer|Benutzer|Kunden|Anwender|Teilnehmer|Antragsteller))`;
const ASK = String.raw`(?:frage|frag|fragen Sie)`;
const BEG = String.raw`(?:bitte|bitten Sie)`;
const SAY = String.raw`(?:sage|sag|sagen Sie|erkläre|erklär|erklären Sie)`;

const SIE: Record<string, string> = {
  ist: 'sind',
  hat: 'haben',
  wird: 'werden',
  kann: 'können',
  will: 'wollen',
  möchte: 'möchten',
  muss: 'müssen',
  darf: 'dürfen',
  soll: 'sollen',
  weiß: 'wissen',
  mag: 'mögen',
  tut: 'tun',
  sieht: 'sehen',
  gibt: 'geben',
  nimmt: 'nehmen',
  liest: 'lesen',
  spricht: 'sprechen',
  fährt: 'fahren',
  trägt: 'tragen',
  hält: 'halten',
  läuft: 'laufen',
  fängt: 'fangen',
  lässt: 'lassen',
  hilft: 'helfen',
  wäre: 'wären',
  hätte: 'hätten',
  würde: 'würden',
  könnte: 'könnten',
  sollte: 'sollten',
  müsste: 'müssten',
};
// Separable prefixes ("zustimmt" → "stimmen … zu"), and verbs that only look separable.
const PREFIXES = [
  'zurück',
  'fort',
  'fest',
  'teil',
  'ab',
  'an',
  'auf',
  'aus',
  'bei',
  'ein',
  'mit',
  'nach',
  'vor',
  'weg',
  'zu',
  'los',
  'her',
  'hin',
  'dar',
];
const INSEPARABLE = new Set(['antwortet', 'analysiert', 'anonymisiert', 'abonniert', 'annulliert']);

/** The "Sie" form of a third-person verb; null when it cannot be told. */
function conjugate(verb: string): string | null {
  if (SIE[verb]) return SIE[verb];
  if (/iert$/.test(verb)) return `${verb.slice(0, -1)}en`;
  if (/(?:el|er)t$/.test(verb)) return `${verb.slice(0, -1)}n`;
  if (/[dt]et$/.test(verb)) return `${verb.slice(0, -2)}en`;
  if (/et$/.test(verb) && /[^aeiouäöü]n?et$/.test(verb) && !/iert$/.test(verb))
    return `${verb.slice(0, -2)}en`;
  if (verb.endsWith('t')) return `${verb.slice(0, -1)}en`;
  return null;
}

/** A verb-final verb split into its separable particle and the rest ("zustimmt" → "zu", "stimmt"). */
function splitParticle(last: string): { stem: string; particle: string } {
  const word = last.toLowerCase();
  if (!SIE[word] && !INSEPARABLE.has(word)) {
    for (const p of PREFIXES) {
      const rest = word.slice(p.length);
      if (word.startsWith(p) && rest.length >= 3 && conjugate(rest))
        return { stem: rest, particle: p };
    }
  }
  return { stem: word, particle: '' };
}

/** The verb of a subordinate clause for the main clause, conjugated for "Sie" when `personal`. */
function verbOf(last: string, personal: boolean): { verb: string; particle: string } | null {
  const { stem, particle } = splitParticle(last);
  const verb = personal ? conjugate(stem) : stem;
  return verb ? { verb, particle } : null;
}

const POSSESSIVE: Record<string, string> = {
  sein: 'Ihr',
  seine: 'Ihre',
  seinen: 'Ihren',
  seinem: 'Ihrem',
  seiner: 'Ihrer',
  seines: 'Ihres',
  ihr: 'Ihr',
  ihre: 'Ihre',
  ihren: 'Ihren',
  ihrem: 'Ihrem',
  ihrer: 'Ihrer',
  ihres: 'Ihres',
  ihm: 'Ihnen',
  ihn: 'Sie',
};

/**
 * Words said to the user: "sein/ihr" → "Ihr" (capital, every case), "ihm" → "Ihnen".
 *
 * @example
 * toSie('seine E-Mail-Adresse'); // 'Ihre E-Mail-Adresse'
 */
export function toSie(words: string): string {
  return mapWords(words, (w) => POSSESSIVE[w] ?? null).replace(
    /(^|\s)(Ihr\w*|Ihnen)/g,
    (_, s: string, p: string) => `${s}${capitalize(p)}`,
  );
}

/** Where the subject of a subordinate clause ends: after a pronoun, else at its first noun. */
function subjectEnd(words: readonly string[]): number {
  if (/^(?:er|sie)$/i.test(words[0] ?? '')) return 1;
  const noun = words.findIndex((w, i) => i >= 0 && /^\p{Lu}/u.test(w));
  return noun >= 0 && noun < words.length - 1 ? noun + 1 : -1;
}

/** A subordinate clause ("er ein Konto eröffnet") as its main-clause parts. */
function mainClause(
  clause: string,
): { verb: string; subject: string; middle: string; particle: string } | null {
  const words = wordsOf(
    clauseOf(clause).replace(
      /^(?:der (?:Nutzer|Benutzer|Kunde|Anwender|Teilnehmer)|die (?:Nutzerin|Benutzerin|Kundin|Person))(?=\s)/,
      'er',
    ),
  );
  if (words.length < 2) return null;
  const end = subjectEnd(words);
  if (end < 0) return null;
  const last = words[words.length - 1] ?? '';
  const personal = end === 1 && /^(?:er|sie)$/i.test(words[0] ?? '');
  const v = verbOf(last, personal);
  if (!v) return null;
  const middle = toSie(words.slice(end, -1).join(' '));
  return {
    verb: v.verb,
    particle: v.particle,
    subject: personal ? 'Sie' : toSie(words.slice(0, end).join(' ')),
    middle,
  };
}

/** "Eröffnen Sie ein Konto?" from "er ein Konto eröffnet". */
function question(clause: string): string | null {
  const c = mainClause(clause);
  if (!c) return null;
  const tail = [c.middle, c.particle].filter(Boolean).join(' ');
  return `${capitalize(c.verb)} ${c.subject}${tail ? ` ${tail}` : ''}?`;
}

/** "Ihr Code ist unterwegs." from "sein Code unterwegs ist". */
function statement(clause: string): string | null {
  const c = mainClause(clause);
  if (!c) return null;
  return sentence([c.subject, c.verb, c.middle, c.particle].filter(Boolean).join(' '));
}

export const DE: Grammar = {
  lang: 'de',
  instruction:
    /^(?:frage|frag|fragen sie|bitte (?:den|die|ihn|sie)\b|bitten sie|sage|sag|sagen sie|erkläre|erklär|erklären sie|teile|teil|teilen sie|begrüße|begrüß|begrüßen sie|heiße|heißen sie|bedanke|bedank|bedanken sie|danke (?:dem|der|ihm|ihr)\b|verabschiede|verabschieden sie)\b/i,
  mentionsUser: /\b(?:de[nm] (?:Nutzer|Benutzer|Kunden)|die Nutzerin|der Nutzerin)\b/,
  lead: /^(?:(?:jetzt|dann|danach|zuerst|zuletzt|freundlich|höflich|auch),?\s+)+/i,
  joiner: /,?\s+und(?: dann)?\s+|,\s+dann\s+/gi,
  fixed: {
    greet: 'Guten Tag!',
    welcome: 'Willkommen!',
    thank: 'Vielen Dank!',
    goodbye: 'Auf Wiedersehen!',
  },
  forms: [
    {
      re: new RegExp(
        String.raw`^(?:begrüße|begrüß|begrüßen Sie)(?: ${ACC})?(?: (?:freundlich|herzlich))?$`,
        'i',
      ),
      fixed: 'greet',
      say: () => 'Guten Tag!',
    },
    {
      re: new RegExp(String.raw`^(?:heiße|heiß|heißen Sie) ${ACC} (?:herzlich )?willkommen$`, 'i'),
      fixed: 'welcome',
      say: () => 'Willkommen!',
    },
    {
      re: new RegExp(
        String.raw`^(?:verabschiede dich|verabschieden Sie sich)(?: von ${DAT})?$`,
        'i',
      ),
      fixed: 'goodbye',
      say: () => 'Auf Wiedersehen!',
    },
    {
      re: new RegExp(
        String.raw`^(?:(?:bedanke|bedank) dich ${AT}|bedanken Sie sich ${AT}|(?:danke|danken Sie) ${DAT})$`,
        'i',
      ),
      fixed: 'thank',
      say: () => 'Vielen Dank!',
    },
    {
      re: new RegExp(
        String.raw`^(?:(?:bedanke|bedank) dich ${AT}|bedanken Sie sich ${AT}|(?:danke|danken Sie) ${DAT}) für (.+)$`,
        'i',
      ),
      say: (m) => `Vielen Dank für ${toSie(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^${ASK}(?: ${ACC})?,? ob (.+)$`, 'i'),
      say: (m) => question(m[1] ?? ''),
    },
    {
      re: new RegExp(String.raw`^${BEG} ${ACC},? (.+) zu bestätigen$`, 'i'),
      say: (m) => `Können Sie ${toSie(m[1] ?? '')} bestätigen?`,
    },
    {
      re: new RegExp(String.raw`^${BEG} ${ACC} um (.+)$`, 'i'),
      say: (m) => `Könnten Sie mir ${toSie(m[1] ?? '')} nennen?`,
    },
    {
      re: new RegExp(String.raw`^${BEG} ${ACC},? (.+) (\S+)$`, 'i'),
      say: (m) => {
        const last = (m[2] ?? '').toLowerCase();
        const sep = PREFIXES.find((p) => last.startsWith(`${p}zu`) && last.length > p.length + 4);
        let verb: string;
        let particle = '';
        let middle = m[1] ?? '';
        if (sep) {
          verb = last.slice(sep.length + 2);
          particle = sep;
        } else if (/ zu$/.test(middle)) {
          middle = middle.replace(/ zu$/, '');
          verb = last;
        } else return null;
        if (!verb.endsWith('en') && !verb.endsWith('ern') && !verb.endsWith('eln')) return null;
        return `Bitte ${verb} Sie ${[toSie(middle), particle].filter(Boolean).join(' ')}.`;
      },
    },
    {
      re: new RegExp(
        String.raw`^(?:${SAY}(?: ${DAT})?|(?:teile|teil|teilen Sie) ${DAT} mit),? dass (.+)$`,
        'i',
      ),
      say: (m) => statement(m[1] ?? ''),
    },
  ],
};
