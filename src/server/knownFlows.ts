import { API_LIMITS } from '../core/api';
import type { Flow, FlowPosition } from '../core/flow';
import { flowIdentity, type FlowIdentity } from './flowIdentity';
import { jsonTooDeep } from './http/jsonDepth';

/**
 * A flow found valid before: everything a create needs of it, made once. Integrators send the
 * same few flows with every session; validating, compiling and hashing one costs several times
 * the rest of a create (docs/api.md, "Caches").
 */
export interface KnownFlow {
  /** Its JSON text, as `JSON.stringify` makes it. */
  text: string;
  /** One deep-frozen value, shared by every session of this text. */
  value: Flow;
  identity: FlowIdentity;
  /** Its start position, shared too (positions are replaced, never changed in place). */
  start: FlowPosition;
}

/** Known flows by their first characters, which is enough to tell flows apart. */
const byPrefix = new Map<string, KnownFlow[]>();
/** The known flow each shared value stands for. */
const byValue = new WeakMap<object, KnownFlow>();
const KNOWN_MAX = 200;
const PREFIX = 48;
/** The longest flow text kept: longer flows are validated with each create. */
export const KNOWN_TEXT_MAX = 64 * 1024;

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

function findText(text: string, at = 0): KnownFlow | undefined {
  const list = byPrefix.get(text.slice(at, at + PREFIX));
  if (!list) return undefined;
  for (const k of list) if (text.startsWith(k.text, at)) return k;
  return undefined;
}

/**
 * Remembers a valid flow and gives its known form (its shared value is what sessions keep).
 * Only texts of up to `KNOWN_TEXT_MAX` are looked up again, and only flows that fit at a body's
 * `flow` within `API_LIMITS.maxJsonDepth`: the body parser checks the depth of the rest of a body
 * only, trusting the known flow's.
 *
 * @example
 * const known = rememberFlow(flow, startFlow(flow));
 * knownFlow(structuredClone(flow))?.value === known.value; // true
 */
export function rememberFlow(
  flow: Flow,
  start: FlowPosition,
  text = JSON.stringify(flow),
): KnownFlow {
  const found = findText(text);
  if (found?.text === text) return found;
  const known: KnownFlow = {
    text,
    value: deepFreeze(JSON.parse(text) as Flow),
    identity: flowIdentity(flow),
    start,
  };
  byValue.set(known.value, known);
  const lookedUp =
    text.length <= KNOWN_TEXT_MAX &&
    text.charCodeAt(0) === 91 /* [ */ &&
    !jsonTooDeep(text, API_LIMITS.maxJsonDepth - 1);
  if (lookedUp) {
    if (byPrefix.size >= KNOWN_MAX) byPrefix.clear();
    const key = text.slice(0, PREFIX);
    byPrefix.set(key, [...(byPrefix.get(key) ?? []), known]);
  }
  return known;
}

/**
 * The known flow a parsed flow is: its shared value itself (the body parser put it there), or a
 * copy with the same text; `{ text }` when it is not known (its text, made for the lookup).
 *
 * @example
 * const found = knownFlow(body.flow);
 * if ('known' in found) session.position = found.known.start;
 */
export function knownFlow(flow: unknown): { known: KnownFlow } | { text: string } {
  const known = typeof flow === 'object' && flow !== null ? byValue.get(flow) : undefined;
  if (known) return { known };
  const text = JSON.stringify(flow) ?? '';
  const byText = text.length <= KNOWN_TEXT_MAX ? findText(text) : undefined;
  return byText?.text.length === text.length ? { known: byText } : { text };
}

/**
 * The known flow whose text starts at `at` in `body`, if any (for the body parser).
 *
 * @example
 * knownFlowAt('{"flow":[…]}', 8)?.value; // the frozen flow, the same object every time
 */
export function knownFlowAt(body: string, at: number): KnownFlow | undefined {
  return findText(body, at);
}

/**
 * A flow's text and identity, as the store keeps it: recalled for a known flow's shared value,
 * made otherwise.
 *
 * @example
 * flowRecord(session.settings.flow); // { hash: '9f…', json: '[{"id":"start",…}]' }
 */
export function flowRecord(flow: Flow): { hash: string; json: string } {
  const known = byValue.get(flow);
  if (known) return { hash: known.identity.hash, json: known.text };
  return { hash: flowIdentity(flow).hash, json: JSON.stringify(flow) };
}
