const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify(flow)`, computed once per flow object: validation, hashing and storage all need
 * the same text of the same (never mutated) flow.
 *
 * @example
 * flowJsonOf(flow) === JSON.stringify(flow); // true
 */
export function flowJsonOf(flow: unknown): string {
  if (flow === null || typeof flow !== 'object') return JSON.stringify(flow) ?? '';
  let text = texts.get(flow);
  if (text === undefined) {
    text = JSON.stringify(flow);
    texts.set(flow, text);
  }
  return text;
}
