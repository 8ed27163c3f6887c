/**
 * `idv settings …`: per-account switches (today: deepfake detection, docs/analyses.md).
 */
import { parseArgs } from 'node:util';
import type { CliContext, CommandGroup } from './command';

const USAGE = [
  "settings deepfake on|off [--account NAME]   deepfake analysis of the account's sessions",
  "settings show [--account NAME]              the account's settings",
];

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { account: { type: 'string' } },
  });
  const [what, value] = positionals;
  const deepfake =
    what === 'deepfake' && (value === 'on' || value === 'off') && positionals.length === 2;
  const show = what === 'show' && positionals.length === 1;
  if (!deepfake && !show) {
    for (const u of USAGE) ctx.err(`usage: idv ${u}`);
    return 2;
  }
  const { store, accountSettings: settings } = await ctx.openBackend();
  const name = values.account ?? 'default';
  const account = await store.findAccount(name);
  if (!account) {
    ctx.err(
      `no account named "${name}" (accounts are made with their first key: ` +
        `idv keys create --mode test --account ${name})`,
    );
    return 1;
  }
  if (deepfake) {
    await settings.setDeepfake(account.id, value === 'on', ctx.clock.now());
    ctx.err(
      `deepfake detection ${value} for account "${name}": sessions that end from now on ` +
        (value === 'on' ? 'get deepfakeDetectionStatus' : 'get none'),
    );
  }
  ctx.out(`deepfake ${(await settings.deepfakeEnabled(account.id)) ? 'on' : 'off'}`);
  return 0;
}

export const settingsCommand: CommandGroup = {
  name: 'settings',
  summary: 'Per-account settings',
  usage: USAGE,
  run,
};
