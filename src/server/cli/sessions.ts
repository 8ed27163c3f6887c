/**
 * `idv sessions erase ID…`: an operator's erasure of sessions (docs/lifecycle.md), the same as
 * `POST /sessions/:id/erase` with the session's own key: media (records, and bytes in
 * `DATA_DIR/media` or the bucket), report data, face-index entry; a tombstone and `session.erased` remain.
 */
import { parseArgs } from 'node:util';
import { createSessionEraser } from '../lifecycle/erase-session';
import { createMediaService, loadOrCreateMediaSecret } from '../media';
import { mediaStoreConfigFromEnv, openMediaStore } from '../media/store-config';
import { folderSecrets } from '../platform-secrets/folder';
import type { MediaStore } from '../media/types';
import type { CliContext, CommandGroup } from './command';

const USAGE = ['sessions erase ID… [--json]   erase sessions: their data goes, a tombstone stays'];

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const [what, ...ids] = positionals;
  if (what !== 'erase' || ids.length === 0) {
    for (const u of USAGE) ctx.err(`usage: idv ${u}`);
    return 2;
  }
  const store = await ctx.openStore();
  // The server's bytes: its folder, or its bucket (MEDIA_S3_*).
  const bytes = await openMediaStore(mediaStoreConfigFromEnv(ctx.env, ctx.dataDir));
  try {
    return await erase(ids, values.json === true, ctx, store, bytes.store);
  } finally {
    bytes.close();
  }
}

async function erase(
  ids: string[],
  json: boolean,
  ctx: CliContext,
  store: Awaited<ReturnType<CliContext['openStore']>>,
  bytes: MediaStore,
): Promise<number> {
  const media = createMediaService({
    db: store.db,
    store: bytes,
    secret: await loadOrCreateMediaSecret(folderSecrets(ctx.dataDir)),
    // No URL is signed here.
    publicUrl: 'http://localhost',
    clock: ctx.clock,
  });
  const eraser = createSessionEraser({ store, db: store.db, media, clock: ctx.clock });
  let missing = 0;
  for (const id of ids) {
    const found = await store.getSessionById(id);
    const r = found
      ? await eraser.erase({ accountId: found.accountId, mode: found.mode }, id)
      : ({ ok: false } as const);
    if (!r.ok) {
      missing++;
      ctx.err(`no session ${id}`);
      continue;
    }
    const erasedAt = r.session.report.erasedAt ?? null;
    if (json) ctx.out(JSON.stringify({ id, erased: r.erased, erasedAt }));
    else
      ctx.out(
        `${id}\t${r.erased ? 'erased' : 'already erased'}\t${new Date(erasedAt ?? 0).toISOString()}`,
      );
  }
  return missing > 0 ? 1 : 0;
}

export const sessionsCommand: CommandGroup = {
  name: 'sessions',
  summary: 'Erase sessions (their data; a tombstone stays)',
  usage: USAGE,
  run,
};
