/**
 * JSON with object keys sorted at every depth, so that two flows that differ only in key order
 * give the same text and hence the same `flowId` hash.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }); // '{"a":[{"c":2,"d":1}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const parts = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`);
  return `{${parts.join(',')}}`;
}
