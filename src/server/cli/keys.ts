import { parseArgs } from 'node:util';
import { createApiKey } from '../keys';
import type { CliContext, CommandGroup } from './command';

const USAGE = [
  'keys create --mode test|live [--account NAME]   print a new key (alone on stdout)',
  'keys list                                       every key: prefix, mode, account, state',
  'keys revoke KEY_PREFIX                          revoke the one key starting with KEY_PREFIX',
];

async function create(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { mode: { type: 'string' }, account: { type: 'string' } },
    strict: true,
  });
  if (values.mode !== 'test' && values.mode !== 'live') {
    ctx.err('keys create: --mode test or --mode live is required');
    return 2;
  }
  const accountName = values.account ?? 'default';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(accountName)) {
    ctx.err('keys create: --account is 1 to 64 letters, digits, "_", "." or "-"');
    return 2;
  }
  const { store } = await ctx.openBackend();
  const { key } = await createApiKey(store, {
    accountName,
    mode: values.mode,
    now: ctx.clock.now(),
  });
  ctx.out(key);
  ctx.err(`Created a ${values.mode} key for account "${accountName}". It is shown only this once.`);
  return 0;
}

async function list(ctx: CliContext): Promise<number> {
  const { store } = await ctx.openBackend();
  const keys = await store.listApiKeys();
  if (keys.length === 0) {
    ctx.err('No keys yet: idv keys create --mode test');
    return 0;
  }
  ctx.out(
    [
      'PREFIX'.padEnd(18),
      'MODE'.padEnd(5),
      'ACCOUNT'.padEnd(16),
      'CREATED'.padEnd(25),
      'STATE',
    ].join(' '),
  );
  for (const k of keys) {
    ctx.out(
      [
        k.prefix.padEnd(18),
        k.mode.padEnd(5),
        k.accountName.padEnd(16),
        new Date(k.createdAt).toISOString().padEnd(25),
        k.revokedAt === null ? 'active' : `revoked ${new Date(k.revokedAt).toISOString()}`,
      ].join(' '),
    );
  }
  return 0;
}

async function revoke(args: string[], ctx: CliContext): Promise<number> {
  const prefix = args[0];
  if (!prefix || args.length > 1) {
    ctx.err('usage: idv keys revoke KEY_PREFIX');
    return 2;
  }
  if (!/^sk_(test|live)_.{4,}/.test(prefix)) {
    ctx.err('keys revoke: give at least sk_test_ or sk_live_ and 4 more characters of the key');
    return 2;
  }
  const { store } = await ctx.openBackend();
  const r = await store.revokeApiKey(prefix, ctx.clock.now());
  if ('revoked' in r) {
    ctx.err(
      `Revoked ${r.revoked.prefix}… (${r.revoked.mode}, account "${r.revoked.accountName}").`,
    );
    return 0;
  }
  if (r.error === 'none') {
    ctx.err(`keys revoke: no active key starts with ${prefix}`);
    return 1;
  }
  ctx.err(
    `keys revoke: ${r.matches.length} active keys start with ${prefix}; give more characters:`,
  );
  for (const k of r.matches) ctx.err(`  ${k.prefix}… ${k.mode} ${k.accountName}`);
  return 1;
}

export const keysCommand: CommandGroup = {
  name: 'keys',
  summary: 'Create, list and revoke API keys',
  usage: USAGE,
  async run(args, ctx) {
    const [sub, ...rest] = args;
    switch (sub) {
      case 'create':
        return create(rest, ctx);
      case 'list':
        return list(ctx);
      case 'revoke':
        return revoke(rest, ctx);
      default:
        ctx.err(`usage:\n${USAGE.map((u) => `  idv ${u}`).join('\n')}`);
        return 2;
    }
  },
};
