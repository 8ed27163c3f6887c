import { API_LIMITS } from '../core/api';
import { jsonTooDeep } from './http/jsonDepth';

const texts = new WeakMap<object, string>();

/** The longest flow text any cache keeps: longer flows are recognised by hash only. */
export const FLOW_TEXT_KEPT_MAX = 64 * 1024;

/**
 * Flows serialised lately, by the ids of their nodes. Every create parses its own copy of the
 * same few flows; walking a copy against the one seen before costs far less than serialising it,
 * and hands back the very same string, whose hash V8 has already computed for the maps it keys.
 */
const recent = new Map<string, { value: object; text: string }>();
const RECENT_MAX = 200;

/**
 * `JSON.stringify(flow)`, computed once per flow object, and not at all for a copy of a flow
 * seen lately: validation, hashing, storage and the answer all need the same text of the same
 * (never mutated) flow.
 *
 * @example
 * flowJsonOf(flow) === JSON.stringify(flow); // true
 * flowJsonOf(structuredClone(flow)) === flowJsonOf(flow); // true, and the same string
 */
export function flowJsonOf(flow: unknown): string {
  if (flow === null || typeof flow !== 'object') return JSON.stringify(flow) ?? '';
  let text = texts.get(flow);
  if (text !== undefined) return text;
  const print = fingerprint(flow);
  const seen = print === null ? undefined : recent.get(print);
  if (seen && sameJson(flow, seen.value)) {
    text = seen.text;
  } else {
    text = JSON.stringify(flow);
    if (print !== null && text.length <= FLOW_TEXT_KEPT_MAX) {
      if (recent.size >= RECENT_MAX) recent.clear();
      recent.set(print, { value: flow, text });
    }
  }
  texts.set(flow, text);
  return text;
}

/** The node ids of a flow (an array of objects with string ids); null for anything else. */
function fingerprint(flow: object): string | null {
  if (!Array.isArray(flow)) return null;
  let print = '';
  for (const node of flow as unknown[]) {
    const id = isPlain(node) ? (node as { id?: unknown }).id : undefined;
    if (typeof id !== 'string') return null;
    print += `${id.length}:${id}`;
  }
  return print;
}

function isPlain(v: unknown): v is object {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null || Array.isArray(v);
}

/**
 * Whether two values serialise to the same JSON text: the same primitives, and plain objects
 * with the same keys in the same order. False for anything it is unsure of (a class instance, a
 * function, an undefined member), which only costs a serialisation.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'function' && a !== undefined;
  if (!isPlain(a) || !isPlain(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i]) return false;
    if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) {
      return false;
    }
  }
  return true;
}

/** A flow found valid before: its text, and one deep-frozen value that every request shares. */
interface KnownText {
  text: string;
  value: object;
}

/** Known flow texts by their first characters, which is enough to tell flows apart. */
const knownTexts = new Map<string, KnownText[]>();
const KNOWN_TEXTS_MAX = 200;
const PREFIX = 48;

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * Remembers the text of a flow that was found valid, so that `knownFlowAt` recognises it in a
 * later body. Only texts of up to `FLOW_TEXT_KEPT_MAX` are kept, and only flows that fit at a
 * body's `flow` within `API_LIMITS.maxJsonDepth`: the body parser checks the depth of the rest
 * of a body only, trusting the known flow's.
 *
 * @example
 * rememberFlowText(flowJsonOf(flow));
 */
export function rememberFlowText(text: string): void {
  if (text.length > FLOW_TEXT_KEPT_MAX || text.charCodeAt(0) !== 91 /* [ */) return;
  const key = text.slice(0, PREFIX);
  const list = knownTexts.get(key) ?? [];
  if (list.some((k) => k.text === text)) return;
  if (jsonTooDeep(text, API_LIMITS.maxJsonDepth - 1)) return;
  if (knownTexts.size >= KNOWN_TEXTS_MAX) knownTexts.clear();
  const value = deepFreeze(JSON.parse(text) as object);
  // Its text is known: neither validation, hashing nor the answer serialises it again.
  texts.set(value, text);
  list.push({ text, value });
  knownTexts.set(key, list);
}

/**
 * The known flow whose text starts at `at` in `body`, if any: its text and its shared value.
 *
 * @example
 * knownFlowAt('{"flow":[…]}', 8)?.value; // the frozen flow, the same object every time
 */
export function knownFlowAt(body: string, at: number): KnownText | undefined {
  const list = knownTexts.get(body.slice(at, at + PREFIX));
  return list?.find((k) => body.startsWith(k.text, at));
}
