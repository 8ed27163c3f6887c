/**
 * `idv events …`: what the outbox holds, how its deliveries went, and sending one again.
 */
import { parseArgs } from 'node:util';
import { displayUrl } from '../webhooks/endpoints';
import type { DeliveryView } from '../webhooks/store';
import type { CliContext, CommandGroup } from './command';

const USAGE = [
  'events list [--failed] [--limit N] [--json]     newest events first, with their deliveries',
  'events redeliver ID [--endpoint ENDPOINT_ID]    send an event again (a fresh retry schedule)',
];

const iso = (t: number) => new Date(t).toISOString();

function describeDelivery(d: DeliveryView): string {
  const state =
    d.status === 'pending'
      ? d.nextAttemptAt !== null
        ? `pending, next ${iso(d.nextAttemptAt)}`
        : 'pending'
      : d.status;
  const last = d.lastError ?? (d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : null);
  return `${d.endpointId} ${state}, ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${
    last ? `, last: ${last}` : ''
  } → ${displayUrl(d.url)}`;
}

async function list(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      failed: { type: 'boolean' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    ctx.err('events list: --limit is a whole number from 1 to 10000');
    return 2;
  }
  const { webhooks } = await ctx.openBackend();
  const events = await webhooks.listEvents({
    failedOnly: values.failed ?? false,
    limit,
  });
  if (values.json) {
    ctx.out(JSON.stringify(events, null, 2));
    return 0;
  }
  if (events.length === 0) {
    ctx.err(values.failed ? 'No failed deliveries.' : 'No events yet.');
    return 0;
  }
  for (const e of events) {
    const scope = e.accountId ? `${e.mode}` : 'platform';
    ctx.out(`${e.id}  ${e.type}  ${iso(e.createdAt)}  ${scope}  ${e.sessionId || '-'}`);
    const shown = values.failed ? e.deliveries.filter((d) => d.status === 'failed') : e.deliveries;
    if (shown.length === 0) ctx.out('    (no endpoint subscribed)');
    for (const d of shown) ctx.out(`    ${describeDelivery(d)}`);
  }
  return 0;
}

async function redeliver(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { endpoint: { type: 'string' } },
  });
  if (positionals.length !== 1) {
    ctx.err(`usage: idv ${USAGE[1]}`);
    return 2;
  }
  const id = positionals[0]!;
  const { webhooks } = await ctx.openBackend();
  const n = await webhooks.redeliver(id, ctx.clock.now(), values.endpoint);
  if (n === null) {
    ctx.err(`events redeliver: no event ${id}`);
    return 1;
  }
  if (n === 0) {
    ctx.err(
      values.endpoint
        ? `events redeliver: endpoint ${values.endpoint} does not exist or does not take ${id}`
        : `events redeliver: no endpoint takes ${id}`,
    );
    return 1;
  }
  ctx.err(
    `Queued ${n} deliver${n === 1 ? 'y' : 'ies'} of ${id}; the running server sends ` +
      `${n === 1 ? 'it' : 'them'} within a second.`,
  );
  return 0;
}

export const eventsCommand: CommandGroup = {
  name: 'events',
  summary: 'List webhook events and their deliveries; redeliver one',
  usage: USAGE,
  async run(args, ctx) {
    const [sub, ...rest] = args;
    try {
      if (sub === 'list') return await list(rest, ctx);
      if (sub === 'redeliver') return await redeliver(rest, ctx);
    } catch (e) {
      if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        ctx.err(`events ${sub}: ${(e as Error).message}`);
        return 2;
      }
      throw e;
    }
    ctx.err(`usage:\n${USAGE.map((u) => `  idv ${u}`).join('\n')}`);
    return 2;
  },
};
