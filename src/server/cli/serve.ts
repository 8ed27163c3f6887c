import { parseArgs } from 'node:util';
import { startServer } from '../main';
import { registerCommand } from './registry';

registerCommand({
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
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    return 0;
  },
});
