/**
 * When the user answers the guide with a question ("hmm, what is this for?") or with something no
 * condition of the node understands, the guide answers it (why it asks, how long it takes, what
 * happens to the data) in the session's language and asks again, up to `REASK_LIMIT` times,
 * before a catch-all outcome may take the reply. The answers are the same for every node: the
 * service knows nothing of the integrator's own reasons, so it says what is true of any step.
 */
import { ANYTHING } from './lexicon';
import { normalizeText } from './local';

/** How many times the guide answers and asks again at one node before a catch-all may act. */
export const REASK_LIMIT = 2;

export type Topic = 'why' | 'howLong' | 'data' | 'other';

const KEYWORDS: Record<Exclude<Topic, 'other'>, readonly string[]> = {
  howLong: [
    'how long',
    'how much time',
    'take long',
    'takes long',
    'combien de temps',
    'wie lange',
    'wie viel zeit',
    'cuanto tiempo',
    'cuanto tarda',
    'cuanto dura',
    'quanto tempo',
    'quanto dura',
    'quanto demora',
    'сколько времени',
    'как долго',
    'долго',
    'berapa lama',
    'hvor lenge',
    'hvor lang tid',
  ],
  data: [
    'data',
    'privacy',
    'personal information',
    'stored',
    'store',
    'kept',
    'donnees',
    'confidentialite',
    'conserv',
    'daten',
    'datenschutz',
    'gespeichert',
    'speicher',
    'datos',
    'privacidad',
    'guardan',
    'dati',
    'dados',
    'privacidade',
    'armazen',
    'данны',
    'конфиденциальн',
    'хран',
    'privasi',
    'simpan',
    'disimpan',
    'personvern',
    'lagre',
    'lagret',
    'opplysning',
  ],
  why: [
    'why',
    'what for',
    'what is this for',
    'what is it for',
    'purpose',
    'reason',
    'pourquoi',
    'a quoi',
    'warum',
    'wieso',
    'weshalb',
    'wozu',
    'por que',
    'para que',
    'perche',
    'a cosa serve',
    'a que serve',
    'почему',
    'зачем',
    'для чего',
    'kenapa',
    'mengapa',
    'untuk apa',
    'hvorfor',
  ],
};

// Words that open a question in the nine languages (normalised: no accents).
const QUESTION_START =
  /^(?:what|why|how|who|when|where|which|can|could|pourquoi|comment|combien|quoi|est-ce|warum|wieso|weshalb|wozu|wie|was|wer|wo|wann|welche|como|cuanto|cuanta|quien|donde|cuando|perche|quanto|cosa|chi|dove|quando|o que|quem|onde|почему|зачем|как|сколько|что|кто|где|когда|kenapa|mengapa|bagaimana|berapa|apa|apakah|siapa|kapan|hvorfor|hvordan|hvor|hva|hvem|nar)(?=\s|$)/u;

const normalized = Object.fromEntries(
  Object.entries(KEYWORDS).map(([topic, words]) => [topic, words.map(normalizeText)]),
) as Record<Exclude<Topic, 'other'>, string[]>;

const holds = (text: string, word: string) => ` ${text} `.includes(` ${word}`);

/**
 * What a reply asks, or null when it asks nothing: how long it takes, what happens to the data,
 * why the guide asks (that order: "why do you keep my data" is about the data), or another
 * question.
 *
 * @example
 * questionTopic('hmm, what is this for?'); // 'why'
 * questionTopic('Wie lange dauert das?'); // 'howLong'
 * questionTopic('yes'); // null
 */
export function questionTopic(reply: string): Topic | null {
  const text = normalizeText(reply);
  if (!text) return null;
  for (const topic of ['howLong', 'data', 'why'] as const) {
    if (normalized[topic].some((w) => holds(text, w))) return topic;
  }
  return reply.trim().endsWith('?') || QUESTION_START.test(text) ? 'other' : null;
}

const ALWAYS = ANYTHING.map(normalizeText);

/**
 * Whether a condition takes any reply (empty, "anything", "otherwise"): a catch-all.
 *
 * @example
 * isCatchAll(''); // true
 * isCatchAll('The user agrees'); // false
 */
export function isCatchAll(condition: string): boolean {
  const c = normalizeText(condition);
  return c === '' || ALWAYS.some((w) => holds(c, w));
}

type Lines = Record<Topic | 'unclear', string>;

const ANSWERS: Record<string, Lines> = {
  en: {
    why: 'I ask so that we can confirm it is really you: this keeps your account safe.',
    howLong: 'It only takes a few minutes.',
    data: 'Your answers and pictures are used only to verify your identity, and kept as the privacy notice of the service that sent you here says.',
    other: 'I cannot answer that here; the service that sent you here can tell you more.',
    unclear: 'Sorry, I did not quite understand.',
  },
  fr: {
    why: "Je vous pose la question pour confirmer qu'il s'agit bien de vous\u00a0: cela protège votre compte.",
    howLong: 'Cela ne prend que quelques minutes.',
    data: "Vos réponses et vos images servent uniquement à vérifier votre identité et sont conservées comme l'indique la politique de confidentialité du service qui vous a envoyé ici.",
    other:
      'Je ne peux pas répondre à cela ici\u00a0; le service qui vous a envoyé ici pourra vous en dire plus.',
    unclear: "Désolé, je n'ai pas bien compris.",
  },
  de: {
    why: 'Ich frage, damit wir bestätigen können, dass wirklich Sie es sind: Das schützt Ihr Konto.',
    howLong: 'Es dauert nur wenige Minuten.',
    data: 'Ihre Antworten und Bilder werden nur zur Prüfung Ihrer Identität verwendet und so lange aufbewahrt, wie es die Datenschutzhinweise des Dienstes sagen, der Sie hierher geschickt hat.',
    other:
      'Das kann ich hier nicht beantworten; der Dienst, der Sie hierher geschickt hat, kann Ihnen mehr sagen.',
    unclear: 'Entschuldigung, das habe ich nicht ganz verstanden.',
  },
  es: {
    why: 'Te lo pregunto para confirmar que eres tú: así protegemos tu cuenta.',
    howLong: 'Solo lleva unos minutos.',
    data: 'Tus respuestas e imágenes se usan solo para verificar tu identidad y se guardan según indica el aviso de privacidad del servicio que te envió aquí.',
    other:
      'No puedo responder a eso aquí; el servicio que te envió aquí puede darte más información.',
    unclear: 'Perdona, no te he entendido bien.',
  },
  it: {
    why: 'Te lo chiedo per confermare che sei proprio tu: così proteggiamo il tuo account.',
    howLong: 'Ci vogliono solo pochi minuti.',
    data: "Le tue risposte e le tue immagini servono solo a verificare la tua identità e sono conservate come indica l'informativa sulla privacy del servizio che ti ha mandato qui.",
    other: 'Non posso rispondere qui; il servizio che ti ha mandato qui può dirti di più.',
    unclear: 'Scusa, non ho capito bene.',
  },
  pt: {
    why: 'Pergunto isso para confirmar que é mesmo você: assim sua conta fica protegida.',
    howLong: 'Leva só alguns minutos.',
    data: 'Suas respostas e imagens são usadas apenas para verificar sua identidade e guardadas conforme o aviso de privacidade do serviço que enviou você até aqui.',
    other:
      'Não posso responder isso aqui; o serviço que enviou você até aqui pode explicar melhor.',
    unclear: 'Desculpe, não entendi bem.',
  },
  ru: {
    why: 'Я спрашиваю, чтобы убедиться, что это действительно вы: так ваш аккаунт будет защищён.',
    howLong: 'Это займёт всего несколько минут.',
    data: 'Ваши ответы и изображения используются только для проверки вашей личности и хранятся так, как указано в политике конфиденциальности сервиса, который направил вас сюда.',
    other:
      'Здесь я не могу на это ответить; подробнее расскажет сервис, который направил вас сюда.',
    unclear: 'Извините, я не совсем понял.',
  },
  id: {
    why: 'Saya menanyakannya untuk memastikan bahwa ini benar-benar Anda: ini melindungi akun Anda.',
    howLong: 'Hanya butuh beberapa menit.',
    data: 'Jawaban dan gambar Anda hanya digunakan untuk memverifikasi identitas Anda dan disimpan sesuai pemberitahuan privasi layanan yang mengarahkan Anda ke sini.',
    other:
      'Saya tidak dapat menjawabnya di sini; layanan yang mengarahkan Anda ke sini dapat menjelaskan lebih lanjut.',
    unclear: 'Maaf, saya kurang mengerti.',
  },
  no: {
    why: 'Jeg spør for å bekrefte at det virkelig er deg: det beskytter kontoen din.',
    howLong: 'Det tar bare noen minutter.',
    data: 'Svarene og bildene dine brukes bare til å bekrefte identiteten din, og de lagres slik personvernerklæringen til tjenesten som sendte deg hit, sier.',
    other: 'Det kan jeg ikke svare på her; tjenesten som sendte deg hit, kan fortelle deg mer.',
    unclear: 'Beklager, jeg forsto ikke helt.',
  },
};

/**
 * The guide's answer to a question (or to a reply it did not understand) in `lang`.
 *
 * @example
 * answerTo('howLong', 'de'); // 'Es dauert nur wenige Minuten.'
 */
export function answerTo(topic: Topic | 'unclear', lang: string): string {
  return (ANSWERS[lang] ?? ANSWERS['en']!)[topic];
}
