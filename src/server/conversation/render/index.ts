/**
 * The local prompt renderer's engine: a descriptive prompt ("Greet the user and ask whether they
 * are ready") becomes what the guide says ("Hello! Are you ready?"), by the grammars of the nine
 * languages. A prompt is read in the language its instructions are written in; the content of
 * the integrator's (what to ask) is said in that language, and fixed forms (a greeting, thanks,
 * goodbye) in the session's. What no grammar can say is refused when the session is made.
 */
import { DE } from './de';
import { EN } from './en';
import { ES } from './es';
import { FR } from './fr';
import type { FixedForm, Grammar } from './grammar';
import { ID } from './id';
import { IT } from './it';
import { NO } from './no';
import { PT } from './pt';
import { RU } from './ru';

export const GRAMMARS: readonly Grammar[] = [EN, FR, DE, ES, IT, PT, RU, ID, NO];

/** What the renderer makes of a prompt. */
export type Reading =
  /** Not an instruction: the guide says it as written. */
  | { kind: 'speech'; text: string }
  /** An instruction it can say, in `lang`; `fixed` when every part is a fixed form. */
  | { kind: 'rendered'; lang: string; text: string; fixed: FixedForm[] | null }
  /** An instruction none of the grammars can say. */
  | { kind: 'unrenderable' };

const SENTENCES = /(?<=[.!?])\s+(?=\p{Lu})/u;

/** Splits a sentence where one instruction ends and the next begins ("… and ask …"). */
function partsOf(text: string, g: Grammar): string[] {
  const parts: string[] = [];
  let rest = text;
  for (;;) {
    g.joiner.lastIndex = 0;
    let cut: { at: number; end: number } | null = null;
    for (let m = g.joiner.exec(rest); m; m = g.joiner.exec(rest)) {
      const after = rest.slice(m.index + m[0].length).replace(g.lead, '');
      if (g.instruction.test(after)) {
        cut = { at: m.index, end: m.index + m[0].length };
        break;
      }
    }
    if (!cut) break;
    parts.push(rest.slice(0, cut.at));
    rest = rest.slice(cut.end);
  }
  parts.push(rest);
  return parts;
}

const clean = (part: string, g: Grammar): string =>
  part
    .trim()
    .replace(g.lead, '')
    .replace(/[\s.!;:]+$/u, '')
    .replace(/\s+/g, ' ')
    .replace(/[’`´]/g, "'");

/** Renders every part with one grammar; null when any part is not one of its forms. */
function renderWith(
  prompt: string,
  g: Grammar,
): { text: string; fixed: FixedForm[] | null } | null {
  const said: string[] = [];
  const fixed: FixedForm[] = [];
  let allFixed = true;
  for (const sentence of prompt.trim().split(SENTENCES)) {
    for (const raw of partsOf(sentence, g)) {
      const part = clean(raw, g);
      if (!part) continue;
      const form = g.forms.find((f) => f.re.test(part));
      const m = form?.re.exec(part);
      const text = form && m ? form.say(m) : null;
      if (!form || !text) return null;
      said.push(text);
      if (form.fixed) fixed.push(form.fixed);
      else allFixed = false;
    }
  }
  return said.length ? { text: said.join(' '), fixed: allFixed ? fixed : null } : null;
}

const looksLikeInstruction = (prompt: string, g: Grammar): boolean => {
  const start = clean(prompt, g);
  return g.instruction.test(start) || g.mentionsUser.test(prompt);
};

/**
 * Reads a descriptive prompt (a `Say:` prompt never comes here).
 *
 * @example
 * readPrompt('Ask the user whether they are opening a personal account');
 * // { kind: 'rendered', lang: 'en', text: 'Are you opening a personal account?', fixed: null }
 * readPrompt('Welcome! Shall we begin?'); // { kind: 'speech', text: 'Welcome! Shall we begin?' }
 */
export function readPrompt(prompt: string): Reading {
  let instruction = false;
  for (const g of GRAMMARS) {
    if (!looksLikeInstruction(prompt, g)) continue;
    instruction = true;
    const r = renderWith(prompt, g);
    if (r) return { kind: 'rendered', lang: g.lang, ...r };
  }
  return instruction ? { kind: 'unrenderable' } : { kind: 'speech', text: prompt.trim() };
}

/**
 * The fixed forms in a language (a greeting, thanks), or null when it has no grammar.
 *
 * @example
 * fixedIn('de', ['greet', 'thank']); // 'Guten Tag! Vielen Dank!'
 */
export function fixedIn(lang: string, forms: readonly FixedForm[]): string | null {
  const g = GRAMMARS.find((x) => x.lang === lang);
  return g ? forms.map((f) => g.fixed[f]).join(' ') : null;
}
