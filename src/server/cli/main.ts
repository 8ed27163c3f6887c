import { join, resolve } from 'node:path';
import { systemClock } from '../clock';
import { loadFeatures } from '../extensions';
import type { SqliteSessionStore } from '../store/sqlite';
import { openSqliteStore } from '../store/sqlite';
import { commandGroups, type CliContext } from './registry';
import './jobs';
import './keys';
import './serve';
import './settings';

function help(ctx: Pick<CliContext, 'err'>): void {
  ctx.err('usage: idv <command> …   (data folder: DATA_DIR, default ./data)\n');
  for (const g of commandGroups()) {
    ctx.err(`  ${g.name.padEnd(10)} ${g.summary}`);
    for (const u of g.usage) ctx.err(`      idv ${u}`);
  }
}

/**
 * The `idv` command line: a small dispatcher over the registered command groups (`keys`,
 * `serve`, and those features add with `registerCommand`). Returns the exit code.
 *
 * @example
 * await runCli(['keys', 'create', '--mode', 'test']); // prints sk_test_… and returns 0
 */
export async function runCli(
  argv: string[],
  io: {
    env?: Record<string, string | undefined>;
    out?: (l: string) => void;
    err?: (l: string) => void;
  } = {},
): Promise<number> {
  await loadFeatures();
  const env = io.env ?? process.env;
  const dataDir = resolve(env['DATA_DIR'] || 'data');
  let store: SqliteSessionStore | null = null;
  const ctx: CliContext = {
    env,
    dataDir,
    clock: systemClock,
    out: io.out ?? ((l) => process.stdout.write(`${l}\n`)),
    err: io.err ?? ((l) => process.stderr.write(`${l}\n`)),
    async openStore() {
      store ??= openSqliteStore({ path: join(dataDir, 'idv.sqlite') });
      return store;
    },
  };
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    help(ctx);
    return name ? 0 : 2;
  }
  const group = commandGroups().find((g) => g.name === name);
  if (!group) {
    ctx.err(`idv: unknown command "${name}"\n`);
    help(ctx);
    return 2;
  }
  try {
    return await group.run(rest, ctx);
  } catch (err) {
    ctx.err(`idv ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    // `serve` keeps its own store open; a command's store closes with the command.
    if (name !== 'serve') await (store as SqliteSessionStore | null)?.close();
  }
}
