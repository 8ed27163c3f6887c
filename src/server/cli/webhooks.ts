/**
 * `idv webhooks …`: register, list, remove endpoints and rotate their signing secrets.
 */
import { parseArgs } from 'node:util';
import type { SessionStore } from '../store/types';
import { parseAddressPolicy } from '../webhooks/address-policy';
import { displayUrl, registerEndpoint, rotateEndpointSecret } from '../webhooks/endpoints';
import { signingSecretsAt } from '../webhooks/secrets';
import type { Mode, WebhookEndpoint } from '../webhooks/store';
import type { CliContext, CommandGroup } from './command';

const USAGE = [
  'webhooks add URL [--events a,b] [--account NAME] [--mode test|live]   print the signing secret',
  'webhooks list [--account NAME] [--mode test|live] [--json]           every endpoint',
  'webhooks remove ID                                                    delete an endpoint',
  'webhooks rotate ID                          print a new secret; the old one signs 24 h more',
];

const iso = (t: number) => new Date(t).toISOString();

async function accountIdOf(store: SessionStore, name: string, ctx: CliContext) {
  const account = await store.findAccount(name);
  if (!account) {
    ctx.err(
      `no account named "${name}" (accounts are made with their first key: ` +
        `idv keys create --mode test --account ${name})`,
    );
  }
  return account;
}

async function add(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      events: { type: 'string' },
      account: { type: 'string' },
      mode: { type: 'string' },
    },
  });
  if (positionals.length !== 1) {
    ctx.err(`usage: idv ${USAGE[0]}`);
    return 2;
  }
  let policy;
  try {
    policy = parseAddressPolicy(ctx.env.WEBHOOK_ALLOW_PRIVATE);
  } catch (e) {
    ctx.err(`webhooks add: ${(e as Error).message}`);
    return 2;
  }
  const { store, webhooks } = await ctx.openBackend();
  const accountName = values.account ?? 'default';
  const account = await accountIdOf(store, accountName, ctx);
  if (!account) return 1;
  const mode = values.mode ?? 'test';
  const result = await registerEndpoint(webhooks, {
    accountId: account.id,
    mode,
    url: positionals[0]!,
    ...(values.events !== undefined ? { events: values.events } : {}),
    policy,
    now: ctx.clock.now(),
  });
  if (!result.ok) {
    for (const p of result.problems) ctx.err(`webhooks add: ${p}`);
    return 2;
  }
  ctx.out(result.secret);
  const ep = result.endpoint;
  ctx.err(
    `Registered ${ep.id} for account "${accountName}" (${ep.mode} mode) → ${displayUrl(ep.url)}, events: ` +
      `${ep.eventTypes?.join(', ') ?? 'all'}. The signing secret above is shown only this once.`,
  );
  return 0;
}

function describeSecrets(ep: WebhookEndpoint, now: number): string {
  const live = signingSecretsAt(ep.secrets, now);
  const retiring = ep.secrets.filter((s) => s.expiresAt !== null && s.expiresAt > now);
  if (retiring.length === 0) return `${live.length}`;
  const until = Math.max(...retiring.map((s) => s.expiresAt!));
  return `${live.length} (rotating until ${iso(until)})`;
}

async function list(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      mode: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (values.mode !== undefined && values.mode !== 'test' && values.mode !== 'live') {
    ctx.err('webhooks list: --mode is test or live');
    return 2;
  }
  const { store, webhooks } = await ctx.openBackend();
  let accountId: string | undefined;
  if (values.account !== undefined) {
    const account = await accountIdOf(store, values.account, ctx);
    if (!account) return 1;
    accountId = account.id;
  }
  const endpoints = await webhooks.listEndpoints({
    ...(accountId ? { accountId } : {}),
    ...(values.mode ? { mode: values.mode as Mode } : {}),
  });
  const now = ctx.clock.now();
  // Accounts are made with their first key, so the keys know every account's name.
  const names = new Map((await store.listApiKeys()).map((k) => [k.accountId, k.accountName]));
  if (values.json) {
    // Secrets stay out of listings: they are shown once, by add and rotate.
    const shown = endpoints.map(({ secrets, ...ep }) => ({
      ...ep,
      url: displayUrl(ep.url),
      accountName: names.get(ep.accountId) ?? null,
      signingSecrets: signingSecretsAt(secrets, now).length,
    }));
    ctx.out(JSON.stringify(shown, null, 2));
    return 0;
  }
  if (endpoints.length === 0) {
    ctx.err('No webhook endpoints yet: idv webhooks add https://example.com/webhooks');
    return 0;
  }
  ctx.out(
    [
      'ID'.padEnd(27),
      'MODE'.padEnd(5),
      'ACCOUNT'.padEnd(16),
      'EVENTS'.padEnd(20),
      'SECRETS'.padEnd(10),
      'URL',
    ].join(' '),
  );
  for (const ep of endpoints) {
    ctx.out(
      [
        ep.id.padEnd(27),
        ep.mode.padEnd(5),
        (names.get(ep.accountId) ?? ep.accountId).padEnd(16),
        (ep.eventTypes?.join(',') ?? 'all').padEnd(20),
        describeSecrets(ep, now).padEnd(10),
        displayUrl(ep.url),
      ].join(' '),
    );
  }
  return 0;
}

async function remove(args: string[], ctx: CliContext): Promise<number> {
  if (args.length !== 1) {
    ctx.err(`usage: idv ${USAGE[2]}`);
    return 2;
  }
  const { webhooks } = await ctx.openBackend();
  if (!(await webhooks.removeEndpoint(args[0]!))) {
    ctx.err(`webhooks remove: no endpoint ${args[0]}`);
    return 1;
  }
  ctx.err(`Removed ${args[0]} and its pending deliveries.`);
  return 0;
}

async function rotate(args: string[], ctx: CliContext): Promise<number> {
  if (args.length !== 1) {
    ctx.err(`usage: idv ${USAGE[3]}`);
    return 2;
  }
  const { webhooks } = await ctx.openBackend();
  const now = ctx.clock.now();
  const r = await rotateEndpointSecret(webhooks, args[0]!, now);
  if (!r) {
    ctx.err(`webhooks rotate: no endpoint ${args[0]}`);
    return 1;
  }
  ctx.out(r.secret);
  const old = r.endpoint.secrets.slice(1).filter((s) => s.expiresAt !== null && s.expiresAt > now);
  const until = old.length ? iso(Math.max(...old.map((s) => s.expiresAt!))) : null;
  ctx.err(
    until
      ? `New secret for ${args[0]} (above, shown once). Deliveries carry two v1= signatures, old ` +
          `and new, until ${until}; then only the new one.`
      : `New secret for ${args[0]} (above, shown once).`,
  );
  return 0;
}

export const webhooksCommand: CommandGroup = {
  name: 'webhooks',
  summary: 'Register webhook endpoints and rotate their signing secrets',
  usage: USAGE,
  async run(args, ctx) {
    const [sub, ...rest] = args;
    try {
      switch (sub) {
        case 'add':
          return await add(rest, ctx);
        case 'list':
          return await list(rest, ctx);
        case 'remove':
          return await remove(rest, ctx);
        case 'rotate':
          return await rotate(rest, ctx);
      }
    } catch (e) {
      if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        ctx.err(`webhooks ${sub}: ${(e as Error).message}`);
        return 2;
      }
      throw e;
    }
    ctx.err(`usage:\n${USAGE.map((u) => `  idv ${u}`).join('\n')}`);
    return 2;
  },
};
