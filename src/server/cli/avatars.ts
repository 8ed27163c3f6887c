/**
 * `idv avatars …` and `idv langs …`: the two platform lists. Every change is written together with
 * its `settings.avatars` / `settings.langs` event, which goes to every account's endpoints that
 * subscribe to it.
 */
import { parseArgs } from 'node:util';
import { LANGUAGES } from '../../core/api';
import { newId } from '../ids';
import type { AvatarRecord } from '../store/types';
import type { CliContext, CommandGroup } from './command';

const AVATAR_USAGE = [
  'avatars list [--json]                                       the avatars GET /avatars lists',
  'avatars add --name NAME --gender male|female|unknown --image URL [--id ID]   print the id',
  'avatars update ID [--name NAME] [--gender G] [--image URL]  change an avatar',
  'avatars remove ID                                           remove an avatar',
];
const LANG_USAGE = [
  'langs list                 the languages GET /langs lists (and sessions may use)',
  'langs add CODE             list one of the nine supported languages again',
  'langs remove CODE          stop offering a language (en, the default, stays)',
];

const GENDERS = ['male', 'female', 'unknown'] as const;

/** Every problem with avatar fields at once; `partial` allows missing ones (update). */
function avatarProblems(
  v: { name?: string; gender?: string; image?: string; id?: string },
  partial: boolean,
): string[] {
  const problems: string[] = [];
  if (v.name !== undefined ? !/^\S.{0,79}$/.test(v.name) : !partial) {
    problems.push('--name is required, 1 to 80 characters');
  }
  if (v.gender !== undefined ? !(GENDERS as readonly string[]).includes(v.gender) : !partial) {
    problems.push('--gender is male, female or unknown');
  }
  if (v.image !== undefined ? !isImageUrl(v.image) : !partial) {
    problems.push('--image is an http(s) URL or a path on this service such as /avatars/nova.svg');
  }
  if (v.id !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(v.id)) {
    problems.push('--id is 1 to 64 letters, digits, "_" or "-"');
  }
  return problems;
}

function isImageUrl(s: string): boolean {
  if (/^\/[^/]/.test(s)) return true;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

function usageError(ctx: CliContext, usage: string[]): number {
  ctx.err(`usage:\n${usage.map((u) => `  idv ${u}`).join('\n')}`);
  return 2;
}

async function avatars(args: string[], ctx: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      gender: { type: 'string' },
      image: { type: 'string' },
      id: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const now = ctx.clock.now();

  if (sub === 'list') {
    const { store } = await ctx.openBackend();
    const list = await store.listAvatars();
    if (values.json) ctx.out(JSON.stringify(list, null, 2));
    else
      for (const a of list)
        ctx.out(`${a.id.padEnd(20)} ${a.gender.padEnd(8)} ${a.name.padEnd(20)} ${a.imageUrl}`);
    return 0;
  }

  if (sub === 'add') {
    const problems = avatarProblems(values, false);
    if (positionals.length > 0) problems.push(`unexpected argument ${positionals[0]}`);
    if (problems.length) {
      for (const p of problems) ctx.err(`avatars add: ${p}`);
      return 2;
    }
    const { store, platformSettings } = await ctx.openBackend();
    const avatar: AvatarRecord = {
      id: values.id ?? newId('ava', 6),
      name: values.name!,
      gender: values.gender as AvatarRecord['gender'],
      imageUrl: values.image!,
      createdAt: now,
    };
    if (await store.getAvatar(avatar.id)) {
      ctx.err(`avatars add: ${avatar.id} exists already (use avatars update)`);
      return 1;
    }
    const r = await platformSettings.change('settings.avatars', now, async (c) => {
      await c.upsertAvatar(avatar);
      return true;
    });
    ctx.out(avatar.id);
    ctx.err(`Added avatar ${avatar.id}; event ${r.eventId} (settings.avatars) queued.`);
    return 0;
  }

  if (sub === 'update') {
    const problems = avatarProblems(values, true);
    if (positionals.length !== 1) problems.push('give the id of the avatar to update');
    if (values.name === undefined && values.gender === undefined && values.image === undefined) {
      problems.push('give at least one of --name, --gender, --image');
    }
    if (problems.length) {
      for (const p of problems) ctx.err(`avatars update: ${p}`);
      return 2;
    }
    const { store, platformSettings } = await ctx.openBackend();
    const id = positionals[0]!;
    const r = await platformSettings.change('settings.avatars', now, async (c) => {
      const current = await c.getAvatar(id);
      if (!current) return false;
      const next: AvatarRecord = {
        ...current,
        ...(values.name !== undefined ? { name: values.name } : {}),
        ...(values.gender !== undefined ? { gender: values.gender as AvatarRecord['gender'] } : {}),
        ...(values.image !== undefined ? { imageUrl: values.image } : {}),
      };
      if (JSON.stringify(next) === JSON.stringify(current)) return false;
      await c.upsertAvatar(next);
      return true;
    });
    if (!r.changed) {
      const exists = await store.getAvatar(id);
      ctx.err(
        exists ? `avatars update: nothing changed for ${id}` : `avatars update: no avatar ${id}`,
      );
      return exists ? 0 : 1;
    }
    ctx.err(`Updated avatar ${id}; event ${r.eventId} (settings.avatars) queued.`);
    return 0;
  }

  if (sub === 'remove') {
    if (positionals.length !== 1) return usageError(ctx, AVATAR_USAGE);
    const { platformSettings } = await ctx.openBackend();
    const id = positionals[0]!;
    const r = await platformSettings.change('settings.avatars', now, (c) => c.deleteAvatar(id));
    if (!r.changed) {
      ctx.err(`avatars remove: no avatar ${id}`);
      return 1;
    }
    ctx.err(`Removed avatar ${id}; event ${r.eventId} (settings.avatars) queued.`);
    return 0;
  }
  return usageError(ctx, AVATAR_USAGE);
}

async function langs(args: string[], ctx: CliContext): Promise<number> {
  const [sub, code, ...extra] = args;
  if (sub === 'list' && code === undefined) {
    const { store } = await ctx.openBackend();
    for (const l of await store.listLangs()) ctx.out(`${l.id}  ${l.title}`);
    return 0;
  }
  if ((sub !== 'add' && sub !== 'remove') || code === undefined || extra.length > 0) {
    return usageError(ctx, LANG_USAGE);
  }
  const index = LANGUAGES.findIndex((l) => l.id === code);
  if (index < 0) {
    ctx.err(
      `langs ${sub}: ${code} is not one of the supported languages (${LANGUAGES.map((l) => l.id).join(', ')})`,
    );
    return 2;
  }
  if (sub === 'remove' && code === 'en') {
    ctx.err('langs remove: en is the default language of every session and stays');
    return 2;
  }
  const { platformSettings } = await ctx.openBackend();
  const now = ctx.clock.now();
  const r = await platformSettings.change('settings.langs', now, (c) =>
    sub === 'add' ? c.addLang(code, LANGUAGES[index]!.title, index) : c.removeLang(code),
  );
  if (!r.changed) {
    ctx.err(`langs ${sub}: ${code} is ${sub === 'add' ? 'listed already' : 'not listed'}`);
    return 0;
  }
  ctx.err(
    `${sub === 'add' ? 'Added' : 'Removed'} ${code}; event ${r.eventId} (settings.langs) queued.`,
  );
  return 0;
}

const parseErrors =
  (name: string, run: (a: string[], c: CliContext) => Promise<number>) =>
  async (args: string[], ctx: CliContext) => {
    try {
      return await run(args, ctx);
    } catch (e) {
      if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        ctx.err(`${name}: ${(e as Error).message}`);
        return 2;
      }
      throw e;
    }
  };

export const avatarsCommand: CommandGroup = {
  name: 'avatars',
  summary: 'List and change the avatars (fires settings.avatars)',
  usage: AVATAR_USAGE,
  run: parseErrors('avatars', avatars),
};

export const langsCommand: CommandGroup = {
  name: 'langs',
  summary: 'List and change the offered languages (fires settings.langs)',
  usage: LANG_USAGE,
  run: parseErrors('langs', langs),
};
