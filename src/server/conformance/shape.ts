/**
 * Checks JSON against the shapes of the original product's SDK 1.0.47 (compat.md), written as
 * fixtures in `shapes/*.json`. A shape is:
 *
 * - `"string"`, `"number"`, `"boolean"`, `"null"` or `"any"`;
 * - an object whose keys are required, or optional when they end in `?`; keys the shape does not
 *   name are allowed (the SDK tolerates them, compat.md §0);
 * - `{ "$enum": [values] }`, `{ "$array": shape, "$nonEmpty"?: true }`, `{ "$map": shape }` (any
 *   keys, each value of that shape), `{ "$union": [shapes] }` (one of them holds),
 *   `{ "$ref": "file#name" }` (a shape of a fixture file, `file` alone for its `$root`),
 *   `{ "$byType": { type: shape }, "$key": "type" }` (picked by the value of a member; a value
 *   whose member names no listed type does not conform).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Shape = string | { [k: string]: unknown };

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'shapes');

let cache: Map<string, Record<string, Shape>> | null = null;

/**
 * Every fixture file, by name without `.json`.
 *
 * @example
 * Object.keys(shapeFiles()); // ['client-secret', 'device', …]
 */
export function shapeFiles(): Map<string, Record<string, Shape>> {
  if (cache) return cache;
  cache = new Map();
  for (const f of readdirSync(DIR).filter((x) => x.endsWith('.json'))) {
    cache.set(f.slice(0, -5), JSON.parse(readFileSync(join(DIR, f), 'utf8')));
  }
  return cache;
}

function resolve(ref: string): Shape {
  const [file, name = '$root'] = ref.split('#') as [string, string?];
  const shape = shapeFiles().get(file)?.[name];
  if (shape === undefined) throw new Error(`no shape ${ref}`);
  return shape;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function check(v: unknown, shape: Shape, path: string, out: string[]): void {
  if (typeof shape === 'string') {
    if (shape === 'any') return;
    if (typeOf(v) !== shape) out.push(`${path}: expected ${shape}, got ${typeOf(v)}`);
    return;
  }
  if ('$ref' in shape) return check(v, resolve(String(shape['$ref'])), path, out);
  if ('$enum' in shape) {
    const values = shape['$enum'] as unknown[];
    if (!values.includes(v))
      out.push(`${path}: ${JSON.stringify(v)} is not one of ${values.join(', ')}`);
    return;
  }
  if ('$union' in shape) {
    const options = shape['$union'] as Shape[];
    const tries = options.map((o) => {
      const p: string[] = [];
      check(v, o, path, p);
      return p;
    });
    if (!tries.some((p) => p.length === 0)) {
      out.push(
        `${path}: matches none of ${options.length} shapes (${tries.map((p) => p[0]).join(' | ')})`,
      );
    }
    return;
  }
  if ('$array' in shape) {
    if (!Array.isArray(v)) return void out.push(`${path}: expected array, got ${typeOf(v)}`);
    if (shape['$nonEmpty'] && v.length === 0) out.push(`${path}: expected a non-empty list`);
    v.forEach((x, i) => check(x, shape['$array'] as Shape, `${path}[${i}]`, out));
    return;
  }
  if (typeOf(v) !== 'object') return void out.push(`${path}: expected object, got ${typeOf(v)}`);
  const o = v as Record<string, unknown>;
  if ('$map' in shape) {
    for (const [k, x] of Object.entries(o)) check(x, shape['$map'] as Shape, `${path}.${k}`, out);
    return;
  }
  if ('$byType' in shape) {
    const key = String(shape['$key'] ?? 'type');
    const cases = shape['$byType'] as Record<string, Shape>;
    const which = cases[String(o[key])];
    if (!which) return void out.push(`${path}.${key}: ${JSON.stringify(o[key])} has no shape`);
    return check(v, which, path, out);
  }
  for (const [rawKey, s] of Object.entries(shape)) {
    const optional = rawKey.endsWith('?');
    const key = optional ? rawKey.slice(0, -1) : rawKey;
    if (!(key in o) || o[key] === undefined) {
      if (!optional) out.push(`${path}.${key}: missing`);
      continue;
    }
    check(o[key], s as Shape, `${path}.${key}`, out);
  }
}

/**
 * The places where `value` departs from the fixture shape `ref` (`file` or `file#name`); empty
 * when it conforms.
 *
 * @example
 * conformanceProblems({ secret: 'cs_x', createdAt: 1, expireAt: 2, url: 'u' }, 'client-secret'); // []
 * conformanceProblems({ secret: 'cs_x' }, 'client-secret'); // ['$.createdAt: missing', …]
 */
export function conformanceProblems(value: unknown, ref: string): string[] {
  const out: string[] = [];
  check(value, resolve(ref), '$', out);
  return out;
}
