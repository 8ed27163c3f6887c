const QUOTE = 34; // "
const BACKSLASH = 92; // \
const OPEN_BRACE = 123; // {
const OPEN_BRACKET = 91; // [
const CLOSE_BRACE = 125; // }
const CLOSE_BRACKET = 93; // ]

/** Where a JSON text first nests too deep: the index, and the key of the body it is under. */
export interface TooDeep {
  /** Index of the `[` or `{` that opens one level more than allowed. */
  at: number;
  /** The top-level key whose value nests too deep; null when the body is not an object. */
  key: string | null;
}

/**
 * Where a JSON text first nests arrays and objects more than `max` levels (the text's own value
 * is level 1), or null if it never does; found in one pass over the text, before it is parsed:
 * what reads a parsed body (schema checks, serialising, hashing) recurses, and a body thousands
 * of levels deep would overflow the stack. Strings are skipped whole (brackets in them do not
 * count). Exact for JSON; for a text that is not JSON, a guess (the parser refuses it anyway).
 *
 * @example
 * jsonTooDeep('{"a":[[1]]}', 3); // null
 * jsonTooDeep('{"a":[[[1]]]}', 3); // { at: 7, key: 'a' }
 */
export function jsonTooDeep(text: string, max: number): TooDeep | null {
  let depth = 0;
  // The last string read at level 1: in an object body, the key of the value being read.
  let keyStart = -1;
  let keyEnd = -1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (end === -1) return null; // unterminated: not JSON, the parser refuses it
      if (depth === 1) {
        keyStart = i;
        keyEnd = end;
      }
      i = end;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return { at: i, key: topKey(text, keyStart, keyEnd) };
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return null;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let q = open;
  for (;;) {
    q = text.indexOf('"', q + 1);
    if (q === -1) return -1;
    // Escaped only by an odd run of backslashes before it.
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
  }
}

function topKey(text: string, start: number, end: number): string | null {
  if (start === -1 || text.charCodeAt(firstNonSpace(text)) !== OPEN_BRACE) return null;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return null;
  }
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  return i;
}
