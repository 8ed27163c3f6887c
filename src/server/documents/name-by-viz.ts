/**
 * A zone whose name alone the glyphs could not settle, settled by the printed fields. Under heavy
 * blur and noise look-alike letters (K and X, E and F, L and I) come within the decision's margin
 * of each other, and nothing in the zone checks a name, so the zone offers every name that fits
 * (`ReadOutcome.nameOptions`). The printed fields are another print of the same name, in another
 * font, read by another OCR: the one option whose every name part is printed there is taken;
 * none or more than one, and the zone stays unread.
 */
import type { MrzResult } from '../../core/mrz';
import { compact } from './checks/viz';

/** Name parts shorter than this must be a whole word of the text (a substring is too likely). */
const SUBSTRING_MIN = 4;

function printed(part: string, text: string, words: ReadonlySet<string>): boolean {
  const p = compact(part);
  return p.length >= SUBSTRING_MIN ? text.includes(p) : words.has(p);
}

/**
 * The one name option whose surname and given names are all printed in `vizText`, or null.
 *
 * @example
 * nameByViz([karel, xarel], 'SURNAME DUBOIS GIVEN NAMES KAREL'); // karel
 */
export function nameByViz(options: readonly MrzResult[], vizText: string | null): MrzResult | null {
  if (!vizText) return null;
  const text = compact(vizText);
  const words = new Set(vizText.split(/\s+/).map(compact).filter(Boolean));
  const found = options.filter((o) => {
    const parts = `${o.data.lastName} ${o.data.firstName}`.split(' ').filter(Boolean);
    return parts.length > 0 && parts.every((part) => printed(part, text, words));
  });
  return found.length === 1 ? found[0]! : null;
}
