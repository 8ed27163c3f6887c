import { clauseOf, mapWords, sentence, wordsOf, type Grammar } from './grammar';

// The page says "Anda" in Indonesian: "dia/ia/mereka" and the suffix "-nya" become "Anda".

const USER = String.raw`(?:(?:kepada |pada )?(?:pengguna|pelanggan|nasabah|pemohon|orang tersebut|orang itu|dia|mereka))`;

const PRONOUN: Record<string, string> = {
  dia: 'Anda',
  ia: 'Anda',
  mereka: 'Anda',
  beliau: 'Anda',
  pengguna: 'Anda',
  pelanggan: 'Anda',
  nasabah: 'Anda',
  pemohon: 'Anda',
};
// Words that end in "nya" without meaning "his/her".
const NOT_POSSESSIVE = new Set(
  'hanya punya tanya bertanya menanyakan karunia dunia biasanya sebenarnya selanjutnya sebelumnya sesudahnya setelahnya akhirnya semuanya lainnya caranya misalnya rupanya sepertinya tampaknya agaknya bahwasanya'.split(
    ' ',
  ),
);
// Words that start a predicate: the clause needs "Anda" as its subject in front of them.
const PREDICATE =
  /^(?:sudah|telah|akan|ingin|mau|bersedia|setuju|siap|sedang|pernah|bisa|dapat|punya|memiliki|mempunyai|me\p{L}+|ber\p{L}+)$/u;

/**
 * Words said to the user: "dia" → "Anda", "rekeningnya" → "rekening Anda".
 *
 * @example
 * toAnda('dia membuka rekening pribadinya'); // 'Anda membuka rekening pribadi Anda'
 */
export function toAnda(text: string): string {
  return mapWords(text, (w) => {
    if (PRONOUN[w]) return PRONOUN[w];
    if (w.length > 5 && w.endsWith('nya') && !NOT_POSSESSIVE.has(w))
      return `${w.slice(0, -3)} Anda`;
    return null;
  });
}

/** "Apakah Anda …?" from the clause after "apakah". */
function question(clause: string): string {
  const said = toAnda(clauseOf(clause));
  const first = wordsOf(said)[0] ?? '';
  const withSubject =
    first !== 'Anda' && PREDICATE.test(first.toLowerCase()) ? `Anda ${said}` : said;
  return `Apakah ${withSubject}?`;
}

export const ID: Grammar = {
  lang: 'id',
  instruction:
    /^(?:tanyakan|tanyakanlah|tanya|minta|mintalah|katakan|beri tahu|beritahu|beritahukan|sampaikan|jelaskan|informasikan|sapa|sapalah|sambut|sambutlah|ucapkan|berterima kasihlah)(?=\s|$)/i,
  mentionsUser: /(?:kepada pengguna|pengguna(?:nya)?\b)/i,
  lead: /^(?:(?:sekarang|lalu|kemudian|pertama|terakhir|dengan sopan|juga),?\s+)+/i,
  joiner: /,?\s+dan(?: lalu| kemudian)?\s+|,\s+lalu\s+/gi,
  fixed: {
    greet: 'Halo!',
    welcome: 'Selamat datang!',
    thank: 'Terima kasih!',
    goodbye: 'Sampai jumpa!',
  },
  forms: [
    {
      re: new RegExp(String.raw`^(?:sapa|sapalah)(?: ${USER})?(?: dengan ramah)?$`, 'i'),
      fixed: 'greet',
      say: () => 'Halo!',
    },
    {
      re: new RegExp(String.raw`^(?:sambut|sambutlah)(?: ${USER})?$`, 'i'),
      fixed: 'welcome',
      say: () => 'Selamat datang!',
    },
    {
      re: new RegExp(String.raw`^ucapkan selamat tinggal(?: ${USER})?$`, 'i'),
      fixed: 'goodbye',
      say: () => 'Sampai jumpa!',
    },
    {
      re: new RegExp(String.raw`^(?:ucapkan terima kasih|berterima kasihlah)(?: ${USER})?$`, 'i'),
      fixed: 'thank',
      say: () => 'Terima kasih!',
    },
    {
      re: new RegExp(
        String.raw`^(?:ucapkan terima kasih|berterima kasihlah)(?: ${USER})? (atas|untuk) (.+)$`,
        'i',
      ),
      say: (m) => `Terima kasih ${m[1]?.toLowerCase()} ${toAnda(m[2] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^(?:tanyakan|tanyakanlah|tanya)(?: ${USER})? apakah (.+)$`, 'i'),
      say: (m) => question(m[1] ?? ''),
    },
    {
      re: new RegExp(
        String.raw`^(?:minta|mintalah)(?: ${USER})? (?:untuk )?mengonfirmasi (.+)$`,
        'i',
      ),
      say: (m) => `Bisakah Anda mengonfirmasi ${toAnda(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(String.raw`^(?:minta|mintalah)(?: ${USER})? (?:untuk )?(.+)$`, 'i'),
      say: (m) => `Silakan ${toAnda(m[1] ?? '')}.`,
    },
    {
      re: new RegExp(String.raw`^(?:tanyakan|tanyakanlah)(?: ${USER})? (.+nya\b.*)$`, 'i'),
      say: (m) => `Boleh saya tahu ${toAnda(m[1] ?? '')}?`,
    },
    {
      re: new RegExp(
        String.raw`^(?:katakan|beri tahu|beritahu|beritahukan|sampaikan|jelaskan|informasikan)(?: ${USER})? bahwa (.+)$`,
        'i',
      ),
      say: (m) => sentence(toAnda(m[1] ?? '')),
    },
  ],
};
