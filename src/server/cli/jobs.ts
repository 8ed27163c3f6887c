/**
 * `idv jobs …`: the background jobs that gave up (liveness analyses, post-session analyses), for
 * an operator to see and, once the cause is fixed, to run again. A running server picks requeued
 * jobs up at its next look at the queue (within a second).
 */
import { parseArgs } from 'node:util';
import type { CliContext, CommandGroup } from './command';

const USAGE = [
  'jobs failed [--json]          the jobs that gave up: id, kind, last error',
  'jobs retry ID… | --all        queue failed jobs again, their tries counted afresh',
];

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, all: { type: 'boolean' } },
  });
  const [what, ...rest] = positionals;
  const ids = rest.map(Number);
  const list = what === 'failed' && rest.length === 0 && !values.all;
  const retry =
    what === 'retry' &&
    !values.json &&
    (values.all ? rest.length === 0 : rest.length > 0 && ids.every(Number.isSafeInteger));
  if (!list && !retry) {
    for (const u of USAGE) ctx.err(`usage: idv ${u}`);
    return 2;
  }
  const { queue } = await ctx.openBackend();
  if (list) {
    const failed = await queue.failed();
    if (values.json) ctx.out(JSON.stringify(failed));
    else for (const j of failed) ctx.out(`${j.id}\t${j.kind}\t${j.error ?? ''}`);
    if (!values.json && failed.length === 0) ctx.err('no failed jobs');
    return 0;
  }
  const done = await queue.retryFailed(values.all ? 'all' : ids, ctx.clock.now());
  for (const id of done) ctx.out(String(id));
  const missing = values.all ? [] : ids.filter((id) => !done.includes(id));
  ctx.err(`requeued ${done.length} job${done.length === 1 ? '' : 's'}`);
  if (missing.length > 0) {
    ctx.err(`not failed jobs (left alone): ${missing.join(', ')}`);
    return 1;
  }
  return 0;
}

export const jobsCommand: CommandGroup = {
  name: 'jobs',
  summary: 'Background jobs that gave up',
  usage: USAGE,
  run,
};
