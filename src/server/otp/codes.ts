import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * A code of `length` random digits (leading zeros allowed).
 *
 * @example
 * generateCode(6); // '048213'
 */
export function generateCode(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/**
 * The stored form of a code: bound to its session and node, so a hash copied elsewhere is useless.
 *
 * @example
 * hashCode('sess_1', 'otp', '123456').length; // 64
 */
export function hashCode(sessionId: string, nodeId: string, code: string): string {
  return createHash('sha256').update(`${sessionId}\n${nodeId}\n${code}`).digest('hex');
}

/**
 * Compares a typed code with the stored hash in constant time.
 *
 * @example
 * codeMatches('sess_1', 'otp', '123456', hashCode('sess_1', 'otp', '123456')); // true
 */
export function codeMatches(
  sessionId: string,
  nodeId: string,
  code: string,
  hash: string,
): boolean {
  const a = Buffer.from(hashCode(sessionId, nodeId, code.trim()), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

const SUBJECT: Record<string, string> = {
  en: 'Your verification code',
  fr: 'Votre code de vérification',
  de: 'Ihr Bestätigungscode',
  ru: 'Ваш код подтверждения',
  es: 'Tu código de verificación',
  id: 'Kode verifikasi Anda',
  no: 'Din bekreftelseskode',
  pt: 'O seu código de verificação',
  it: 'Il tuo codice di verifica',
};

const BODY: Record<string, string> = {
  en: 'Your verification code is {{code}}. It expires in {{minutes}} minutes.',
  fr: 'Votre code de vérification est {{code}}. Il expire dans {{minutes}} minutes.',
  de: 'Ihr Bestätigungscode lautet {{code}}. Er läuft in {{minutes}} Minuten ab.',
  ru: 'Ваш код подтверждения: {{code}}. Он действует {{minutes}} мин.',
  es: 'Tu código de verificación es {{code}}. Caduca en {{minutes}} minutos.',
  id: 'Kode verifikasi Anda adalah {{code}}. Berlaku selama {{minutes}} menit.',
  no: 'Bekreftelseskoden din er {{code}}. Den utløper om {{minutes}} minutter.',
  pt: 'O seu código de verificação é {{code}}. Expira em {{minutes}} minutos.',
  it: 'Il tuo codice di verifica è {{code}}. Scade tra {{minutes}} minuti.',
};

/**
 * The message carrying a code: the node's template (`{{code}}`) or the default in the session's
 * language.
 *
 * @example
 * codeMessage({ code: '123456', lang: 'fr', expirySeconds: 300 }).text;
 * // 'Votre code de vérification est 123456. Il expire dans 5 minutes.'
 */
export function codeMessage(input: {
  code: string;
  lang: string;
  expirySeconds: number;
  template?: string;
}): { subject: string; text: string } {
  const minutes = String(Math.max(1, Math.round(input.expirySeconds / 60)));
  const template = input.template ?? BODY[input.lang] ?? (BODY['en'] as string);
  return {
    subject: SUBJECT[input.lang] ?? (SUBJECT['en'] as string),
    text: template.replaceAll('{{code}}', input.code).replaceAll('{{minutes}}', minutes),
  };
}

/**
 * Hides most of an address for the page: `j•••@example.com`, `+33•••••78`.
 *
 * @example
 * maskDestination('jane@example.com'); // 'j•••@example.com'
 * maskDestination('+33612345678'); // '+33•••••••78'
 */
export function maskDestination(dest: string): string {
  const at = dest.indexOf('@');
  if (at > 0) return `${dest.slice(0, 1)}•••${dest.slice(at)}`;
  if (dest.length <= 5) return '•'.repeat(dest.length);
  return `${dest.slice(0, 3)}${'•'.repeat(dest.length - 5)}${dest.slice(-2)}`;
}

/**
 * @example
 * isEmail('a@b.co'); // true
 */
export function isEmail(v: string): boolean {
  return v.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
}

/**
 * A phone number in international form, spaces and dashes allowed.
 *
 * @example
 * normalizePhone('+33 6 12-34-56-78'); // '+33612345678'
 * normalizePhone('0612'); // null
 */
export function normalizePhone(v: string): string | null {
  const p = v.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(p) ? p : null;
}
