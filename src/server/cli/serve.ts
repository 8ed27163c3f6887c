import { parseArgs } from 'node:util';
import { startServer } from '../main';
import { closeWithin } from './closeWithin';
import type { CommandGroup } from './command';

/** How long a stop signal waits for the server to finish what it has in hand. */
const CLOSE_DEADLINE_MS = 10_000;

export const serveCommand: CommandGroup = {
  name: 'serve',
  summary: 'Serve the API and the hosted page (PORT, HOST, DATA_DIR, PUBLIC_URL)',
  usage: ['serve [--no-build]   build the page if missing, then serve everything on one origin'],
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { 'no-build': { type: 'boolean' } },
      strict: true,
    });
    const server = await startServer({
      env: ctx.env,
      log: (line) => ctx.err(line),
      build: !values['no-build'],
    });
    const stop = (signal: string) => {
      ctx.err(`${signal}: closing`);
      void closeWithin(() => server.close(), CLOSE_DEADLINE_MS).then((how) => {
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
    return 0;
  },
};
