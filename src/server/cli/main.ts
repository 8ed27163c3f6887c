import { resolve } from 'node:path';
import { systemClock } from '../clock';
import { POSTGRES_NOT_SERVED_YET, databaseFromEnv } from '../store/databaseUrl';
import { openBackend, type Backend } from '../backend';
import { avatarsCommand, langsCommand } from './avatars';
import type { CliContext, CommandGroup } from './command';
import { dbCommand } from './db';
import { eventsCommand } from './events';
import { jobsCommand } from './jobs';
import { keysCommand } from './keys';
import { serveCommand, workerCommand } from './serve';
import { sessionsCommand } from './sessions';
import { settingsCommand } from './settings';
import { webhooksCommand } from './webhooks';

/** Every `idv` command group, in the order `idv help` lists them. */
export const COMMANDS: readonly CommandGroup[] = [
  dbCommand,
  jobsCommand,
  keysCommand,
  serveCommand,
  sessionsCommand,
  settingsCommand,
  avatarsCommand,
  langsCommand,
  eventsCommand,
  webhooksCommand,
  workerCommand,
];

function help(ctx: Pick<CliContext, 'err'>): void {
  ctx.err('usage: idv <command> …   (data folder: DATA_DIR, default ./data)\n');
  for (const g of COMMANDS) {
    ctx.err(`  ${g.name.padEnd(10)} ${g.summary}`);
    for (const u of g.usage) ctx.err(`      idv ${u}`);
  }
}

/**
 * The `idv` command line: a small dispatcher over the command groups of `COMMANDS`. The data
 * folder's store is opened with every feature's tables. Returns the exit code.
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
  const env = io.env ?? process.env;
  const dataDir = resolve(env['DATA_DIR'] || 'data');
  let backend: Backend | null = null;
  const database = databaseFromEnv(env['DATABASE_URL'], dataDir);
  const ctx: CliContext = {
    env,
    dataDir,
    clock: systemClock,
    out: io.out ?? ((l) => process.stdout.write(`${l}\n`)),
    err: io.err ?? ((l) => process.stderr.write(`${l}\n`)),
    async openBackend() {
      backend ??= await openBackend(database);
      return backend;
    },
    async openStore() {
      if (database.kind !== 'sqlite') throw new Error(POSTGRES_NOT_SERVED_YET);
      const opened = await ctx.openBackend();
      if (opened.kind !== 'sqlite') throw new Error(POSTGRES_NOT_SERVED_YET);
      return opened.store;
    },
  };
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    help(ctx);
    return name ? 0 : 2;
  }
  const group = COMMANDS.find((g) => g.name === name);
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
    if (name !== 'serve') await (backend as Backend | null)?.close();
  }
}
