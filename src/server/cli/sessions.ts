/**
 * `idv sessions erase ID…`: an operator's erasure of sessions (docs/lifecycle.md), the same as
 * `POST /sessions/:id/erase` with the session's own key: media (records, and bytes in
 * `DATA_DIR/media` or the bucket), report data, face-index entry; a tombstone and `session.erased` remain.
 * On the SQLite file or the PostgreSQL database `DATABASE_URL` names, beside running servers.
 */
import { parseArgs } from 'node:util';
import type { Backend } from '../backend';
import { createSessionEraser } from '../lifecycle/erase-session';
import { pgLifecycle } from '../lifecycle/pg-lifecycle';
import { sqliteLifecycle } from '../lifecycle/sqlite-lifecycle';
import { createMediaService, loadOrCreateMediaSecret } from '../media';
import { pgMediaRecords } from '../media/pg-records';
import { mediaStoreConfigFromEnv, openMediaStore } from '../media/store-config';
import { folderSecrets } from '../platform-secrets/folder';
import { pgPlatformSecrets } from '../platform-secrets/pg';
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
  const backend = await ctx.openBackend();
  // The server's bytes: its folder, or its bucket (MEDIA_S3_*).
  const bytes = await openMediaStore(mediaStoreConfigFromEnv(ctx.env, ctx.dataDir));
  try {
    return await erase(ids, values.json === true, ctx, backend, bytes.store);
  } finally {
    bytes.close();
  }
}

async function erase(
  ids: string[],
  json: boolean,
  ctx: CliContext,
  backend: Backend,
  bytes: MediaStore,
): Promise<number> {
  const { store } = backend;
  const sqlite = backend.kind === 'sqlite';
  const media = createMediaService({
    ...(sqlite ? { db: backend.sqlite } : { records: pgMediaRecords(backend.store.pg) }),
    store: bytes,
    secret: await loadOrCreateMediaSecret(
      sqlite ? folderSecrets(ctx.dataDir) : pgPlatformSecrets(backend.store.pg),
    ),
    // No URL is signed here.
    publicUrl: 'http://localhost',
    clock: ctx.clock,
  });
  const lifecycle = sqlite
    ? sqliteLifecycle({ store: backend.store, db: backend.sqlite })
    : pgLifecycle(backend.store);
  const eraser = createSessionEraser({ lifecycle, media, clock: ctx.clock });
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
