import { parseArgs } from 'node:util';
import { startServer, startWorker } from '../main';
import { closeWithin } from './closeWithin';
import type { CliContext, CommandGroup } from './command';

/** How long a stop signal waits for the server to finish what it has in hand. */
const CLOSE_DEADLINE_MS = 10_000;

/** Closes on SIGINT or SIGTERM, within the deadline, then exits. */
function closeOnSignals(ctx: CliContext, close: () => Promise<void>): void {
  const stop = (signal: string) => {
    ctx.err(`${signal}: closing`);
    void closeWithin(close, CLOSE_DEADLINE_MS).then((how) => {
      if (how === 'late') {
        ctx.err(
          `still closing after ${CLOSE_DEADLINE_MS / 1000} s: exiting; a job left unfinished runs again at the next start`,
        );
      }
      process.exit(how === 'closed' ? 0 : 1);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

export const serveCommand: CommandGroup = {
  name: 'serve',
  summary: 'Serve the API and the hosted page (PORT, HOST, DATA_DIR, PUBLIC_URL)',
  usage: [
    'serve [--no-build]   build the page if missing, then serve everything on one origin',
    'serve --no-worker    serve requests only; jobs and webhook deliveries run in `idv worker`',
  ],
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { 'no-build': { type: 'boolean' }, 'no-worker': { type: 'boolean' } },
      strict: true,
    });
    const server = await startServer({
      env: ctx.env,
      log: (line) => ctx.err(line),
      build: !values['no-build'],
      role: values['no-worker'] ? 'api' : 'all',
    });
    closeOnSignals(ctx, () => server.close());
    return 0;
  },
};

export const workerCommand: CommandGroup = {
  name: 'worker',
  summary: 'Run jobs and webhook deliveries only, no HTTP (DATA_DIR or DATABASE_URL)',
  usage: ['worker               analyses, liveness decisions and webhooks beside API instances'],
  async run(args, ctx) {
    parseArgs({ args, options: {}, strict: true });
    const worker = await startWorker({ env: ctx.env, log: (line) => ctx.err(line) });
    closeOnSignals(ctx, () => worker.close());
    return 0;
  },
};
