import { clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

// The page says "вы" in Russian: a verb of "он/она" becomes the "вы" form.

const ACC = String.raw`(?:пользователя|клиента|человека|заявителя|его|её|ее)`;
const DAT = String.raw`(?:пользователю|клиенту|человеку|заявителю|ему|ей)`;
const ASK = String.raw`(?:спроси|спросите|узнай|узнайте)`;
const BEG = String.raw`(?:попроси|попросите)`;

const VY: Record<string, string> = {
  хочет: 'хотите',
  может: 'можете',
  будет: 'будете',
  идёт: 'идёте',
  идет: 'идете',
  даёт: 'даёте',
  ест: 'едите',
  готов: 'готовы',
  готова: 'готовы',
  согласен: 'согласны',
  согласна: 'согласны',
  уверен: 'уверены',
  уверена: 'уверены',
  доволен: 'довольны',
  довольна: 'довольны',
  прав: 'правы',
  должен: 'должны',
  должна: 'должны',
  обязан: 'обязаны',
  обязана: 'обязаны',
  права: 'правы',
  есть: 'есть',
};

/** A verb (or short adjective) of "он/она" in the "вы" form; null when it cannot be told. */
function conjugate(word: string): string | null {
  if (VY[word]) return VY[word];
  if (/[её]тся$/.test(word)) return `${word.slice(0, -3)}тесь`;
  if (/ится$/.test(word)) return `${word.slice(0, -3)}тесь`;
  if (/[еёи]т$/.test(word)) return `${word}е`;
  return null;
}

const POSSESSIVE: Record<string, string> = {
  свой: 'ваш',
  свою: 'вашу',
  своё: 'ваше',
  свое: 'ваше',
  свои: 'ваши',
  своего: 'вашего',
  своей: 'вашей',
  своих: 'ваших',
  своим: 'вашим',
  своими: 'вашими',
  своём: 'вашем',
  своем: 'вашем',
  его: 'ваш',
  её: 'ваш',
  ее: 'ваш',
  ему: 'вам',
  ей: 'вам',
  себя: 'себя',
};

/**
 * Words said to the user: "свой/его/её" → "ваш" (in the case of "свой").
 *
 * @example
 * yours('свой адрес'); // 'ваш адрес'
 */
export function yours(text: string): string {
  return mapWords(text, (w) => POSSESSIVE[w] ?? null);
}

/** "Вы открываете …?" from "открывает ли он …". */
function question(verb: string, rest: string): string | null {
  const v = conjugate(verb.toLowerCase());
  if (!v) return null;
  const tail = yours(clauseOf(rest));
  return `Вы ${v}${tail ? ` ${tail}` : ''}?`;
}

/** A "что" clause said to the user: "он/она" → "вы" with the verb that follows conjugated. */
function statement(clause: string): string | null {
  const words = wordsOf(clause);
  if (/^(?:он|она)$/i.test(words[0] ?? '')) {
    let at = 1;
    if (words[at] === 'не') at++;
    const v = conjugate((words[at] ?? '').toLowerCase());
    if (!v) return null;
    return sentence(
      ['вы', ...words.slice(1, at), v, yours(words.slice(at + 1).join(' '))]
        .filter(Boolean)
        .join(' '),
    );
  }
  return sentence(yours(clause));
}

export const RU: Grammar = {
  lang: 'ru',
  instruction:
    /^(?:спроси|спросите|узнай|узнайте|попроси|попросите|скажи|скажите|объясни|объясните|сообщи|сообщите|поприветствуй|поприветствуйте|поблагодари|поблагодарите|попрощайся|попрощайтесь)(?=[\s,]|$)/i,
  mentionsUser: /(?:пользовател[ьяюем]|клиент[ауом]?(?=\s|,|$))/i,
  lead: /^(?:(?:теперь|затем|потом|сначала|вежливо|также),?\s+)+/i,
  joiner: /,?\s+и(?: затем| потом)?\s+|,\s+затем\s+/gi,
  fixed: {
    greet: 'Здравствуйте!',
    welcome: 'Добро пожаловать!',
    thank: 'Спасибо!',
    goodbye: 'До свидания!',
  },
  forms: [
    {
      re: new RegExp(String.raw`^(?:поприветствуй|поприветствуйте)(?: ${ACC})?$`, 'i'),
      fixed: 'greet',
      say: () => 'Здравствуйте!',
    },
    {
      re: /^(?:попрощайся|попрощайтесь)(?: с (?:пользователем|клиентом|человеком|ним|ней))?$/i,
      fixed: 'goodbye',
      say: () => 'До свидания!',
    },
    {
      re: new RegExp(String.raw`^(?:поблагодари|поблагодарите)(?: ${ACC})?$`, 'i'),
      fixed: 'thank',
      say: () => 'Спасибо!',
    },
    {
      re: new RegExp(String.raw`^(?:поблагодари|поблагодарите)(?: ${ACC})? за (.+)$`, 'i'),
      say: (m) => `Спасибо за ${yours(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(
        String.raw`^${ASK}(?: у)?(?: ${ACC})?,? (\S+) ли(?: (?:он|она|пользователь|клиент))?(.*)$`,
        'i',
      ),
      say: (m) => question(m[1] ?? '', m[2] ?? ''),
    },
    {
      re: new RegExp(String.raw`^${BEG} ${ACC} подтвердить (.+)$`, 'i'),
      say: (m) => `Подтвердите, пожалуйста, ${yours(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^(?:${BEG} ${ACC} назвать|${ASK} у ${ACC}) (.+)$`, 'i'),
      say: (m) => `Назовите, пожалуйста, ${yours(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^${BEG} ${ACC} (\S+(?:ть|ти|чь|ться|тись))(.*)$`, 'i'),
      say: (m) => `Прошу вас ${m[1]?.toLowerCase()}${yours(m[2] ?? '')}.`,
    },
    {
      re: new RegExp(
        String.raw`^(?:скажи|скажите|объясни|объясните|сообщи|сообщите)(?: ${DAT})?,? что (.+)$`,
        'i',
      ),
      say: (m) => statement(m[1] ?? ''),
    },
  ],
};
