/**
 * Words and phrases of agreement, disagreement, refusal and small numbers in the nine languages,
 * for the local condition matcher. Entries are written plainly; matching normalises accents and
 * case on both sides.
 */
export const AFFIRM: readonly string[] = [
  // en
  'yes',
  'yeah',
  'yep',
  'yup',
  'sure',
  'ok',
  'okay',
  'correct',
  'right',
  'agree',
  'of course',
  'absolutely',
  'certainly',
  'definitely',
  'i do',
  'i am',
  'indeed',
  'affirmative',
  // fr
  'oui',
  'ouais',
  "d'accord",
  'bien sur',
  'exact',
  'exactement',
  'certainement',
  'volontiers',
  // de
  'ja',
  'jawohl',
  'genau',
  'klar',
  'einverstanden',
  'sicher',
  'naturlich',
  'richtig',
  'gerne',
  // ru
  'да',
  'конечно',
  'ага',
  'согласен',
  'согласна',
  'верно',
  'хорошо',
  'ладно',
  'точно',
  // es
  'si',
  'claro',
  'vale',
  'de acuerdo',
  'correcto',
  'por supuesto',
  'desde luego',
  // id
  'ya',
  'iya',
  'betul',
  'benar',
  'setuju',
  'tentu',
  'baik',
  'oke',
  'boleh',
  // no
  'jo',
  'jepp',
  'greit',
  'sikkert',
  'riktig',
  'enig',
  'selvfolgelig',
  // pt
  'sim',
  'certo',
  'concordo',
  'com certeza',
  'pode ser',
  'claro que sim',
  // it
  'certo',
  'va bene',
  "d'accordo",
  'esatto',
  'certamente',
  'volentieri',
];

export const NEGATE: readonly string[] = [
  // en
  'no',
  'nope',
  'nah',
  'not',
  "don't",
  'dont',
  'never',
  'disagree',
  'negative',
  'no way',
  // fr
  'non',
  'pas',
  'jamais',
  'pas du tout',
  // de
  'nein',
  'nicht',
  'kein',
  'keine',
  'niemals',
  'nee',
  // ru
  'нет',
  'не',
  'никогда',
  'неа',
  // es
  'nunca',
  'de ninguna manera',
  // id
  'tidak',
  'bukan',
  'nggak',
  'enggak',
  'gak',
  'tak',
  'jangan',
  'belum',
  // no
  'nei',
  'ikke',
  'aldri',
  // pt
  'nao',
  'nunca',
  // it
  'non',
  'mai',
  'per niente',
];

export const REFUSE: readonly string[] = [
  // en
  'refuse',
  "won't",
  'wont',
  'rather not',
  'prefer not',
  'stop',
  'cancel',
  'quit',
  'leave me',
  // fr
  'je refuse',
  'je ne veux pas',
  'annuler',
  'arreter',
  'stop',
  // de
  'verweigere',
  'will nicht',
  'abbrechen',
  'mochte nicht',
  'aufhoren',
  // ru
  'отказываюсь',
  'не хочу',
  'отмена',
  'стоп',
  'хватит',
  // es
  'me niego',
  'no quiero',
  'cancelar',
  'parar',
  // id
  'menolak',
  'tidak mau',
  'gak mau',
  'batal',
  'berhenti',
  // no
  'nekter',
  'vil ikke',
  'avbryt',
  'stopp',
  // pt
  'recuso',
  'nao quero',
  'parar',
  // it
  'rifiuto',
  'non voglio',
  'annulla',
  'basta',
  'smetti',
];

/** Number words 0–20 per language (index = value), read by the number conditions. */
export const NUMBER_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  ),
  fr: 'zero un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept dix-huit dix-neuf vingt'.split(
    ' ',
  ),
  de: 'null eins zwei drei vier funf sechs sieben acht neun zehn elf zwolf dreizehn vierzehn funfzehn sechzehn siebzehn achtzehn neunzehn zwanzig'.split(
    ' ',
  ),
  ru: 'ноль один два три четыре пять шесть семь восемь девять десять одиннадцать двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать восемнадцать девятнадцать двадцать'.split(
    ' ',
  ),
  es: 'cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciseis diecisiete dieciocho diecinueve veinte'.split(
    ' ',
  ),
  id: 'nol satu dua tiga empat lima enam tujuh delapan sembilan sepuluh sebelas duabelas tigabelas empatbelas limabelas enambelas tujuhbelas delapanbelas sembilanbelas duapuluh'.split(
    ' ',
  ),
  no: 'null en to tre fire fem seks sju atte ni ti elleve tolv tretten fjorten femten seksten sytten atten nitten tjue'.split(
    ' ',
  ),
  pt: 'zero um dois tres quatro cinco seis sete oito nove dez onze doze treze catorze quinze dezesseis dezessete dezoito dezenove vinte'.split(
    ' ',
  ),
  it: 'zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici sedici diciassette diciotto diciannove venti'.split(
    ' ',
  ),
};

/** Words of a condition that say "whatever the reply". */
export const ANYTHING: readonly string[] = [
  'anything',
  'any answer',
  'any reply',
  'any response',
  'otherwise',
  'else',
  'default',
  'always',
];
