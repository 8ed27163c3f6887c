/**
 * `npm run bench`: runs every benchmark of the project on this machine and prints one table.
 * `npm run bench -- flow api` runs only the named ones.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types';

const suites = [
  'flow',
  'api',
  'webhooks',
  'page',
  'liveness',
  'detector',
  'documents',
  'analyses',
  'faces',
  'store',
  'wal',
  'shared',
] as const;

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const selected = wanted.length > 0 ? suites.filter((s) => wanted.includes(s)) : suites;

const rows: (BenchRow & { suite: string })[] = [];
for (const suite of selected) {
  const file = fileURLToPath(new URL(`./${suite}.bench.ts`, import.meta.url));
  if (!existsSync(file)) continue;
  process.stderr.write(`bench: ${suite}…\n`);
  const mod = (await import(file)) as { default: () => Promise<BenchRow[]> };
  for (const row of await mod.default()) rows.push({ suite, ...row });
}

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 1));
const lines = rows.map((r) => [r.suite, r.name, `${fmt(r.value)} ${r.unit}`, r.target ?? '']);
const widths = [0, 1, 2, 3].map((i) =>
  Math.max(
    ...['suite', 'figure', 'measured', 'target'].map((h, j) => (j === i ? h.length : 0)),
    ...lines.map((l) => l[i]!.length),
  ),
);
const print = (cols: string[]) => console.log(cols.map((c, i) => c.padEnd(widths[i]!)).join('  '));
print(['suite', 'figure', 'measured', 'target']);
for (const l of lines) print(l);
