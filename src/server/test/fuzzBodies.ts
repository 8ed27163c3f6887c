import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { API_LIMITS, ERROR_CODES, ERROR_STATUS, ErrorBodySchema } from '../../core/api';

/**
 * Arbitraries of JSON body texts for the fuzz tests: valid bodies with a value nested up to
 * 10,000 levels put at any place, and texts mutated at random, built as text so that no
 * recursion (the test's own JSON.stringify) limits how deep they go.
 */

const LIMIT = API_LIMITS.maxJsonDepth;

/** Strings that a depth count which does not skip strings properly would miscount. */
const TRICKY_STRINGS = ['[[[[', '{{{{', ']]}}', '\\', '"', '\\"[', '\\\\', '"]}', '\u0000'];

const trickyString = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom(...TRICKY_STRINGS));
/** Small JSON texts (a level of a deep value repeats thousands of times). */
const smallJson = fc.oneof(
  fc.constantFrom('null', 'true', '0', '-1.5e3', '[]', '{}', '[[]]', '{"a":{}}', '[{"b":[0]}]'),
  trickyString.map((s) => JSON.stringify(s)),
);

/** One level of a deep value: an array or an object, with siblings before the next level. */
const level = fc.oneof(
  fc.array(smallJson, { maxLength: 1 }).map((before) => ({
    open: `[${before.map((b) => `${b},`).join('')}`,
    close: ']',
  })),
  fc
    .tuple(fc.array(fc.tuple(trickyString, smallJson), { maxLength: 1 }), trickyString)
    // Keys unlike each other: a repeated key would hide a member from JSON.parse (the oracle).
    .map(([before, key]) => {
      const siblings = before.map(([k, v], i) => `${JSON.stringify(`s${i}${k}`)}:${v},`);
      return { open: `{${siblings.join('')}${JSON.stringify(`k${key}`)}:`, close: '}' };
    }),
);

/** How many levels: around the limit, past it, and up to 10,000. */
const levels = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: LIMIT + 4 }), weight: 3 },
  { arbitrary: fc.integer({ min: LIMIT + 5, max: 2_000 }), weight: 2 },
  { arbitrary: fc.integer({ min: 2_000, max: 10_000 }), weight: 1 },
);

/** JSON text of a value nested `levels` deep: a repeating pattern of arrays and objects. */
export const deepJson = fc
  .tuple(levels, fc.array(level, { minLength: 1, maxLength: 4 }), fc.oneof(smallJson, fc.json()))
  .map(([n, pattern, leaf]) => {
    const opens: string[] = new Array<string>(n);
    const closes: string[] = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const l = pattern[i % pattern.length]!;
      opens[i] = l.open;
      closes[n - 1 - i] = l.close;
    }
    return opens.join('') + leaf + closes.join('');
  });

type Path = (string | number)[];

/** Every place of a JSON value: each member, a new member of each object and array, itself. */
function places(value: unknown, path: Path = []): Path[] {
  const out: Path[] = [path];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...places(v, [...path, i])));
    out.push([...path, value.length]);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...places(v, [...path, k]));
    out.push([...path, 'fuzz']);
  }
  return out;
}

const MARKER = '\u0001deep value\u0001';

/** The text of `base` with `text` at `path` in place of what was there (if anything). */
function putText(base: unknown, path: Path, text: string): string {
  if (path.length === 0) return text;
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = MARKER;
  const json = JSON.stringify(copy);
  const i = json.indexOf(JSON.stringify(MARKER));
  return json.slice(0, i) + text + json.slice(i + JSON.stringify(MARKER).length);
}

/** A valid body with a deep value at one of its places (any member, at any depth). */
export function withDeepValue(base: unknown): fc.Arbitrary<string> {
  const all = places(base);
  return fc
    .tuple(fc.constantFrom(...all), deepJson)
    .map(([path, deep]) => putText(base, path, deep));
}

const TOKENS = ['[', ']', '{', '}', '"', '\\', ',', ':', 'null', '"flow":', '[[[[[[', '{"a":'];

/** An edit of a text: a token or any JSON put in, a slice taken out, a slice repeated. */
const mutation = fc.tuple(
  fc.nat(),
  fc.oneof(
    fc.oneof(fc.constantFrom(...TOKENS), fc.json(), fc.string()).map((s) => ({ insert: s })),
    fc.integer({ min: 1, max: 20 }).map((n) => ({ remove: n })),
    fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 2, max: 2_000 }))
      .map(([len, times]) => ({ len, times })),
  ),
);

/** `text` edited 1 to 3 times at random places. */
export function mutated(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([t, edits]) => {
    let s = t;
    for (const [n, edit] of edits) {
      const at = n % (s.length + 1);
      if ('insert' in edit) s = s.slice(0, at) + edit.insert + s.slice(at);
      else if ('remove' in edit) s = s.slice(0, at) + s.slice(at + edit.remove);
      else s = s.slice(0, at) + s.slice(at, at + edit.len).repeat(edit.times) + s.slice(at);
    }
    return s;
  });
}

/**
 * Levels of arrays and objects of a parsed JSON value (the value itself is level 1), walked
 * with a stack of its own: an oracle independent of the server's scan of the text.
 */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    for (const x of Object.values(v)) stack.push([x, d + 1]);
  }
  return max;
}

/** The depth of a JSON text's value, or null if it is not JSON. */
export function textDepth(text: string): number | null {
  try {
    return depthOf(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * Problems with an answer to a body: anything but a 2xx, or a 4xx with the spec's error body
 * whose status is its type's; and a body nested too deep must get the depth refusal.
 */
export function answerProblems(
  r: { statusCode: number; body: string },
  depth: number | null,
): string[] {
  const problems: string[] = [];
  const deepRefusal = (m: unknown) =>
    typeof m === 'string' && m.includes(`more than ${LIMIT} levels deep`);
  let json: unknown;
  try {
    json = JSON.parse(r.body);
  } catch {
    return [`${r.statusCode}: the answer is not JSON: ${r.body.slice(0, 200)}`];
  }
  const error = (
    json as { error?: { type: keyof typeof ERROR_STATUS; message: string; code?: string } }
  ).error;
  if (r.statusCode >= 200 && r.statusCode < 300) {
    if (depth !== null && depth > LIMIT) problems.push(`${r.statusCode} to a body ${depth} deep`);
    return problems;
  }
  if (r.statusCode >= 500 || r.statusCode < 400) problems.push(`status ${r.statusCode}`);
  if (!Value.Check(ErrorBodySchema, json) || !error) {
    return [...problems, `not the error body: ${r.body.slice(0, 200)}`];
  }
  if (ERROR_STATUS[error.type] !== r.statusCode) {
    problems.push(`${error.type} with status ${r.statusCode}`);
  }
  if (error.code !== undefined && !(ERROR_CODES as readonly string[]).includes(error.code)) {
    problems.push(`unknown code ${error.code}`);
  }
  if (depth !== null && depth > LIMIT && !deepRefusal(error.message)) {
    problems.push(`a body ${depth} deep got ${r.statusCode} ${error.message}`);
  }
  if (depth !== null && depth <= LIMIT && deepRefusal(error.message)) {
    problems.push(`a body ${depth} deep was refused as too deep`);
  }
  return problems;
}
