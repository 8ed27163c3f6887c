/**
 * No import circles in the server: every module of `src/server` (tests included), following its
 * relative imports and re-exports, type-only ones too (a type circle is still two modules that
 * cannot be understood apart). The detector is checked on a small tree with a circle of its own.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The file a relative specifier names, if it is one of `files`. */
function target(from: string, spec: string, files: ReadonlySet<string>): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/** Each file's imports and re-exports inside the tree. */
function importGraph(root: string): Map<string, string[]> {
  const files = new Set(sources(root));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const deps = new Set<string>();
    for (const statement of source.statements) {
      const spec =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : null;
      const to = spec === null ? null : target(file, spec, files);
      if (to) deps.add(to);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** One circle per strongly connected group of modules, as `a → b → … → a` (Tarjan). */
function circles(graph: Map<string, string[]>, root: string): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = new Set<string>();
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.add(w);
    } while (w !== v);
    if (group.size === 1 && !(graph.get(v) ?? []).includes(v)) return;
    // Walk inside the group from v until a module repeats: that is the circle to show.
    const path = [v];
    for (let at = v; ;) {
      at = (graph.get(at) ?? []).find((x) => group.has(x))!;
      const seen = path.indexOf(at);
      if (seen >= 0) {
        found.push([...path.slice(seen), at].map((f) => relative(root, f)).join(' → '));
        break;
      }
      path.push(at);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports of src/server', () => {
  it('form no circle', () => {
    const graph = importGraph(SERVER);
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph, SERVER)).toEqual([]);
  });

  it('a circle, type imports and re-exports included, is found and named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "export { c as B } from './c';\n");
      writeFileSync(join(dir, 'c.ts'), "import './a';\nexport const c = 1;\n");
      writeFileSync(join(dir, 'd.ts'), "import { c } from './c';\nexport const d = c;\n");
      expect(circles(importGraph(dir), dir)).toEqual(['a.ts → b.ts → c.ts → a.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
